/**
 * Checks what the agent built: calls each task's webhook on the trial's n8n with the hidden payloads
 * (hidden.json) and compares the answers (compare.ts); where a task asks for it, also looks at the
 * workflow in n8n (a sub-workflow called; the seeded workflow changed in place). Then counts the
 * agent's requests per agent and task from the call log. Prints tables and writes all of it as JSON.
 *
 *   npx tsx scripts/trial/check.ts [--tasks greet,route] [--out file.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { firstDifference } from './compare.ts';
import { callLogFile, n8nFile, readState, trialDir, type N8nState } from './state.ts';
import { readHidden, readTasks, type HiddenCase, type StructureCheck, type Task } from './tasks.ts';

const CALL_TIMEOUT_MS = 30_000;
/** The table shows this much of a difference; the JSON has all of it. */
const PRINTED_DIFFERENCE = 160;

interface N8nNode {
  type: string;
  parameters?: Record<string, unknown>;
  disabled?: boolean;
}
interface N8nWorkflow {
  id: string;
  name: string;
  active: boolean;
  nodes: N8nNode[];
}

interface CaseResult {
  body: unknown;
  works: boolean;
  status?: number;
  /** What differs from the expected answer, or why there is no answer. */
  difference?: string;
}

interface TaskResult {
  task: string;
  kind: string;
  path: string;
  works: boolean;
  cases: CaseResult[];
  /** Workflows in n8n with a Webhook at the task's path. */
  workflows: { id: string; name: string; active: boolean }[];
  structure?: { check: StructureCheck; works: boolean; detail: string };
}

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option('--tasks')?.split(',');
const n8n = readState<N8nState>(n8nFile());
const hidden = readHidden();
const workflows = await listWorkflows();

const results: TaskResult[] = [];
for (const task of readTasks().filter((t) => !only || only.includes(t.id))) {
  const checks = hidden.get(task.id);
  if (!checks) throw new Error(`hidden.json has no cases for task ${task.id}`);
  const cases: CaseResult[] = [];
  for (const hidden of checks.cases) cases.push(await callWebhook(task.path, hidden));
  const atPath = workflows.filter((w) => webhookPaths(w).includes(task.path));
  const structure = checks.structure && { check: checks.structure, ...checkStructure(checks.structure, task, atPath) };
  results.push({
    task: task.id,
    kind: task.kind,
    path: task.path,
    works: cases.every((c) => c.works) && (structure?.works ?? true),
    cases,
    workflows: atPath.map(({ id, name, active }) => ({ id, name, active })),
    ...(structure ? { structure } : {}),
  });
}
const calls = countCalls();

for (const result of results) {
  console.log(
    `\n${result.works ? 'WORKS' : 'FAILS'}  ${result.task} (${result.kind}), /webhook/${result.path}` +
      `, workflows there: ${result.workflows.map((w) => `${w.id}${w.active ? '' : ' (inactive)'}`).join(', ') || 'none'}`,
  );
  for (const [i, c] of result.cases.entries()) console.log(`  case ${i + 1}: ${c.works ? 'ok' : `fails: ${c.difference!.slice(0, PRINTED_DIFFERENCE)}`}`);
  if (result.structure) console.log(`  ${result.structure.check}: ${result.structure.works ? 'ok' : 'fails'}: ${result.structure.detail}`);
}
console.log(`\n${results.filter((r) => r.works).length} of ${results.length} tasks work.`);
console.log('\ntool calls (agent / task: calls, errors, answer kB)');
for (const row of calls) console.log(`  ${row.agent || '-'} / ${row.task || '-'}: ${row.calls}, ${row.errors}, ${(row.answerBytes / 1000).toFixed(1)}`);

const out = resolve(option('--out') ?? join(trialDir(), `check-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
writeFileSync(out, JSON.stringify({ checkedAt: new Date().toISOString(), tasks: results, calls }, null, 2) + '\n');
console.log(`\nwritten to ${out}`);

/** One hidden payload, POSTed as JSON to the task's production webhook. */
async function callWebhook(path: string, { body, expect: expected, status: expectedStatus = 200 }: HiddenCase): Promise<CaseResult> {
  let response: Response;
  try {
    response = await fetch(`${n8n.url}/webhook/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    return { body, works: false, difference: `no answer: ${(error as Error).message}` };
  }
  const text = await response.text();
  const status = response.status;
  if (status !== expectedStatus) return { body, works: false, status, difference: `HTTP ${status}, not ${expectedStatus}: ${text.slice(0, 300)}` };
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return { body, works: false, status, difference: `not JSON: ${JSON.stringify(text.slice(0, 300))}` };
  }
  const difference = firstDifference(expected, answer);
  return { body, works: difference === undefined, status, ...(difference ? { difference } : {}) };
}

function checkStructure(check: StructureCheck, task: Task, atPath: N8nWorkflow[]): { works: boolean; detail: string } {
  const active = atPath.filter((w) => w.active);
  if (check === 'seededWorkflow') {
    const seeded = n8n.seeded[task.id];
    const works = active.length === 1 && active[0]!.id === seeded;
    return { works, detail: `seeded ${seeded}; active at the path: ${active.map((w) => w.id).join(', ') || 'none'}` };
  }
  const callers = active.filter((w) => w.nodes.some((n) => !n.disabled && n.type === 'n8n-nodes-base.executeWorkflow'));
  return {
    works: callers.length > 0,
    detail: callers.length ? `${callers.map((w) => w.id).join(', ')} calls a workflow` : 'no active workflow at the path has an enabled Execute Workflow node',
  };
}

/** The paths of a workflow's enabled Webhook nodes. */
function webhookPaths(workflow: N8nWorkflow): string[] {
  return workflow.nodes
    .filter((n) => !n.disabled && n.type === 'n8n-nodes-base.webhook' && typeof n.parameters?.path === 'string')
    .map((n) => (n.parameters!.path as string).replace(/^\/+/, ''));
}

/** Every workflow in n8n, through its public API (pages of 250). */
async function listWorkflows(): Promise<N8nWorkflow[]> {
  const all: N8nWorkflow[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '250', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${n8n.url}/api/v1/workflows?${query}`, { headers: { 'x-n8n-api-key': n8n.apiKey } });
    if (!response.ok) throw new Error(`n8n GET /workflows: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { data: N8nWorkflow[]; nextCursor?: string | null };
    all.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

/** Requests per agent and task label in the call log. */
function countCalls(): { agent: string; task: string; calls: number; errors: number; answerBytes: number }[] {
  const file = callLogFile();
  if (!existsSync(file)) return [];
  const rows = new Map<string, { agent: string; task: string; calls: number; errors: number; answerBytes: number }>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { agent: string; task: string; isError: boolean; answerBytes: number };
    const key = JSON.stringify([entry.agent, entry.task]);
    const row = rows.get(key) ?? { agent: entry.agent, task: entry.task, calls: 0, errors: 0, answerBytes: 0 };
    row.calls++;
    if (entry.isError) row.errors++;
    row.answerBytes += entry.answerBytes;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.agent.localeCompare(b.agent) || a.task.localeCompare(b.task));
}
