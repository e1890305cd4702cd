import { z } from 'zod';
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { valueAt } from '../../lib/jsonPointer';
import { ToolError, type ToolContext } from '../tool';
import { NamedObject } from '../validation/schemas';
import { n8nTool, READS, REPLACES } from './n8nTool';
import { messageOf } from './runWithCleanUp';
import { historyFor } from '../../history/history';
import { workflowPath, type Workflow } from './workflowApi';
import { runWorkflowTest } from './testWorkflow';

/** What a stored test expects of a run; every part it gives must hold. */
const Expectation = z.object({
  status: z.number().int().min(100).max(599).optional().describe('The HTTP status the trigger answers'),
  body: NamedObject.optional().describe('Fields of the JSON answer: JSON Pointer → the value it must have, e.g. {"/ok": true, "/order/total": 250}'),
  items: NamedObject.optional().describe('Node name → how many items it must put out (all its outputs together); 0 for a node no item may reach'),
  noFailedNode: z.boolean().default(true).describe('The execution must succeed with no failed node (default true)'),
});

/** One test case of a workflow: what to send, and what must hold of the run. */
const TestCase = z.object({
  name: z.string().min(1).max(100).describe('The test’s name, unique per workflow (saving it again replaces it)'),
  payload: NamedObject.optional().describe('What test_workflow sends the trigger: JSON body (POST…) or query (GET), a chat message'),
  trigger: z.string().optional().describe('Which trigger to call, by name, if there are several'),
  expect: Expectation.default({ noFailedNode: true }),
  waitSeconds: z.number().int().min(1).max(60).default(20).describe('How long to wait for its execution'),
});
export type TestCase = z.output<typeof TestCase>;

/** What a run answered, as a stored test judges it (test_workflow's answer, and the trigger's answer whole). */
export interface RunOutcome {
  status: number;
  body: unknown;
  execution: { status?: string; verdict?: string; failed?: unknown; nodes?: { node: string; items: number[] }[] };
}

/** What does not hold of a run, one sentence each: none when the test passes. Pure. */
export function judgeRun(expect: TestCase['expect'], run: RunOutcome): string[] {
  const failures: string[] = [];
  if (expect.status !== undefined && run.status !== expect.status) failures.push(`the trigger answered HTTP ${run.status}, not ${expect.status}`);
  for (const [pointer, wanted] of Object.entries(expect.body ?? {})) {
    const found = valueAt(run.body, pointer);
    if (JSON.stringify(found) !== JSON.stringify(wanted)) {
      failures.push(`the answer's ${pointer || 'body'} is ${found === undefined ? 'missing' : JSON.stringify(found)}, not ${JSON.stringify(wanted)}`);
    }
  }
  for (const [node, wanted] of Object.entries(expect.items ?? {})) {
    const ran = run.execution.nodes?.find((n) => n.node === node);
    const count = ran?.items.reduce((a, b) => a + b, 0) ?? 0;
    if (count !== wanted)
      failures.push(`"${node}" put out ${ran ? `${count} item${count === 1 ? '' : 's'}` : 'nothing (it did not run)'}, not ${String(wanted)}`);
  }
  if (expect.noFailedNode && (run.execution.status !== 'success' || run.execution.failed)) {
    failures.push(`the run did not succeed: ${run.execution.verdict ?? run.execution.status ?? 'no execution found'}`);
  }
  return failures;
}

export interface TestResult {
  name: string;
  passed: boolean;
  failures: string[];
  /** The execution the run made, to read with get_execution. */
  execution?: string;
  /** The version of the workflow that ran: the published one (on an n8n with drafts, maybe not the saved one). */
  ranVersionId?: string | null;
  verdict?: string;
}

/** A workflow's saved test cases, the named ones only when `names` is given (an unknown name is an error that lists the saved ones). */
async function savedTests(ctx: ToolContext, workflowId: string, names?: readonly string[]): Promise<TestCase[]> {
  const saved = (await (await historyFor(ctx.env)).tests(workflowId)).map((t) => TestCase.parse(JSON.parse(t.definition)));
  if (!names) return saved;
  const missing = names.filter((n) => !saved.some((t) => t.name === n));
  if (missing.length) {
    throw new ToolError(
      `Workflow ${workflowId} has no saved test ${missing.map((n) => `"${n}"`).join(', ')}; its tests: ${saved.map((t) => `"${t.name}"`).join(', ') || 'none'}.`,
    );
  }
  return saved.filter((t) => names.includes(t.name));
}

/**
 * Runs a workflow's saved tests one after the other, each as test_workflow runs the workflow, and
 * judges each run. A test that cannot run (no time left, the trigger refused) fails with the reason.
 * `draft` says, as a run said it, that the saved version is a draft the runs did not run.
 */
export async function runSavedTests(
  n8n: N8nClient,
  ctx: ToolContext,
  workflowId: string,
  names?: readonly string[],
): Promise<{ results: TestResult[]; draft?: string }> {
  const results: TestResult[] = [];
  let draft: string | undefined;
  for (const test of await savedTests(ctx, workflowId, names)) {
    try {
      const { answer, responseBody } = await runWorkflowTest(n8n, ctx, {
        workflowId,
        payload: test.payload ?? {},
        trigger: test.trigger,
        waitSeconds: test.waitSeconds,
      });
      draft ??= answer.workflow.draft;
      const execution = answer.execution as RunOutcome['execution'] & { id?: string };
      const failures = judgeRun(test.expect, { status: answer.trigger.status, body: responseBody, execution });
      results.push({
        name: test.name,
        passed: failures.length === 0,
        failures,
        ...(execution.id ? { execution: execution.id } : {}),
        verdict: execution.verdict,
        ranVersionId: answer.workflow.ranVersionId,
      });
    } catch (error) {
      results.push({ name: test.name, passed: false, failures: [`it could not run: ${messageOf(error)}`] });
    }
  }
  return { results, ...(draft ? { draft } : {}) };
}

/** One line for a failed test: its name and what did not hold. */
export const failureLine = (r: TestResult): string => `"${r.name}": ${r.failures.join('; ')}`;

export const STORED_TEST_TOOLS = [
  n8nTool({
    name: 'save_workflow_test',
    title: 'Save a test with a workflow',
    description:
      'Save a test case with a workflow: the payload its trigger gets and what must hold of the run — the HTTP status, ' +
      'fields of the JSON answer (by JSON Pointer), items per node, no failed node. run_workflow_tests runs them; ' +
      'edit_workflow with runTests runs them after saving and puts the workflow back if one fails.',
    input: z.object({ id: n8nId('workflow'), test: TestCase }),
    annotations: REPLACES,
    async run({ id, test }, n8n, ctx) {
      // A test is kept only with a workflow that exists (and goes when delete_workflow deletes it).
      await n8n.get<Workflow>(workflowPath(id)).catch((error: unknown) => {
        throw error instanceof N8nApiError && error.status === 404
          ? new ToolError(`n8n has no workflow ${id}: a test is saved with a workflow that exists. Nothing was saved.`)
          : error;
      });
      const outcome = await (await historyFor(ctx.env)).saveTest(id, test.name, JSON.stringify(test), ctx.caller.subject);
      if ('refused' in outcome) throw new ToolError(`The test was not saved: ${outcome.refused}.`);
      return { saved: true, id, test };
    },
  }),
  n8nTool({
    name: 'list_workflow_tests',
    title: 'List the tests of a workflow',
    description: 'The test cases saved with a workflow: what each sends and expects, who saved it and when.',
    input: z.object({ id: n8nId('workflow') }),
    annotations: READS,
    async run({ id }, _n8n, ctx) {
      const tests = await (await historyFor(ctx.env)).tests(id);
      return { id, tests: tests.map((t) => ({ ...(JSON.parse(t.definition) as object), savedBy: t.by, savedAt: t.at })) };
    },
  }),
  n8nTool({
    name: 'delete_workflow_test',
    title: 'Delete a test of a workflow',
    description: 'Delete a test case saved with a workflow, by name.',
    input: z.object({ id: n8nId('workflow'), name: z.string().min(1).max(100) }),
    annotations: REPLACES,
    async run({ id, name }, _n8n, ctx) {
      if (!(await (await historyFor(ctx.env)).deleteTest(id, name)))
        throw new ToolError(`Workflow ${id} has no saved test "${name}" (list_workflow_tests lists them).`);
      return { deleted: true, id, name };
    },
  }),
  n8nTool({
    name: 'run_workflow_tests',
    title: 'Run the tests of a workflow',
    description:
      "Run a workflow's saved tests (all, or the named ones), each through its trigger as test_workflow runs it, and " +
      'report each: passed, or what did not hold, with the execution to read (get_execution view "error").',
    input: z.object({ id: n8nId('workflow'), names: z.array(z.string()).optional().describe('Only these tests, by name') }),
    // Each test runs the workflow, which does whatever it does.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    checkWith: 'list_executions',
    alsoNeeds: ['executions:read'],
    timeoutMs: 120_000,
    runsLong: () => true,
    async run({ id, names }, n8n, ctx) {
      const { results, draft } = await runSavedTests(n8n, ctx, id, names);
      if (results.length === 0) return { id, passed: true, tests: [], note: 'No test is saved with this workflow: save_workflow_test saves one.' };
      // The runs ran the published version: a saved draft was not tested, which the answer says.
      return { id, passed: results.every((r) => r.passed), tests: results, ...(draft ? { draft } : {}) };
    },
  }),
];
