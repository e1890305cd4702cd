/**
 * Checks every workflow of this folder against a real n8n (scripts/n8n/realN8n.ts) and rewrites the table
 * in README.md:
 *
 *   - creates it through the public API (POST /api/v1/workflows) and reads it back (GET), which must give
 *     the same nodes and connections;
 *   - if it has an enabled Webhook and needs neither credentials nor an AI model: activates it, calls each
 *     production webhook URL on loopback with a sample order, and waits for the executions
 *     (GET /api/v1/executions?workflowId=…&includeData=true), which must all have status "success";
 *   - a sub-workflow (Execute Workflow Trigger only) counts as executed when its caller's run ran it;
 *   - checks every node's parameters as n8n's editor would (NodeHelpers of the installed n8n-workflow, with
 *     the node descriptions of the installed packages): no parameter issues, no parameter that the node's
 *     version and settings do not show (so n8n would ignore it).
 *
 * Fixture 26 calls fixture 25 by id: its `workflowId.value` is a placeholder that is replaced here by the id
 * the workflow named in `cachedResultName` got.
 *
 *   npx tsx scripts/n8n/verifyFixtures.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { N8N_DIR, N8N_VERSION, startRealN8n } from './realN8n.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/workflows');

/** What each file is for (the README's "covers" column). */
const COVERS: Record<string, string> = {
  '01': 'Webhook v1 (lastNode), Set v1 keepOnlySet (string/number/boolean), `$json["body"]` syntax',
  '02': 'Webhook v1.1, Set v2 with dot notation, chained Set',
  '03': 'Webhook v2, Set v3 `fields.values` (all 5 types), v3.2 raw JSON mode, v3.4 `assignments` + includeOtherFields',
  '04': 'IF v1 number/string/boolean conditions, combineOperation all/any, both branches, `$node["Name"].json`',
  '05': 'IF v2 and v2.2 (filter conditions, loose type validation, singleValue operator), Split Out',
  '06': 'Switch v1 rules with 4 outputs and fallbackOutput 3, Function node',
  '07': 'Switch v2 number rules with outputKey, Switch v2 expression mode (outputsAmount)',
  '08': 'Switch v3.2 rules with renamed outputs + extra fallback output, Switch v3 expression mode, Code v2',
  '09': 'Merge v1 append, mergeByKey, passThrough; fan-out to two branches',
  '10': 'Merge v2/v2.1 combine by fields (enrichInput2), by position (includeUnpaired), chooseBranch',
  '11': 'Merge v3.2 with numberInputs 3, v3 combine by fieldsToMatchString, v3.1 combineByPosition',
  '12': 'HTTP Request v1, v3 (fullResponse), v4.1 (headers), v4.2 (JSON query, text response) without auth, on loopback',
  '13': 'HTTP Request v1 basicAuth, v3 generic header auth, v4.2 predefined Slack credential, v4.3 bearer; Schedule v1.2',
  '14': 'Code v1 and v2 JavaScript, runOnceForAllItems and runOnceForEachItem, `$input`, `$("Node")`, Luxon',
  '15': 'Code v2 Python (Pyodide) in both modes',
  '16': 'Legacy Function and Function Item nodes',
  '17': 'Split In Batches v1 loop back with IF on `context["noItemsLeft"]`',
  '18': 'Loop Over Items (Split In Batches v3) done/loop outputs with loop back, Split In Batches v2, Aggregate',
  '19': 'Wait v1.1 and v1 (time interval), No Operation',
  '20': 'Filter v1 and v2.2, Sort (simple + code), Limit (first / last items)',
  '21': 'Split Out (destination field, tags), Aggregate individual fields + all item data, Merge v3.2 by position',
  '22': 'Remove Duplicates v1, v1.1 selected fields, v2 all-fields-except and seen-in-previous-executions',
  '23': 'Date & Time v2 (current date, add, format, time between) and v1, Crypto hash / hmac / generate',
  '24': 'Execute Workflow v1.2 and v1 with an inline JSON sub-workflow (source parameter, mode each)',
  '25': 'Sub-workflow: Execute Workflow Trigger v1.1 with typed workflow inputs (called by 26)',
  '26': 'Execute Workflow v1.3 from database with `__rl` workflowId and mapped workflowInputs; Summarize v1.1',
  '27': 'Manual Trigger + Webhook v2.1 into one node; `$json`, `$("Node").item.json`, `$node["Name"].json`, `$items("Name")`, `$input`, `$jmespath`, `$prevNode`, extensions',
  '28': 'onError continueErrorOutput (HTTP v4.2 and per-item Code) wired from error outputs, continueRegularOutput, legacy continueOnFail',
  '29': 'Sticky notes (with color), a disabled node mid-chain with notes, alwaysOutputData, Set v3.3',
  '30': 'Webhook v2 responseMode responseNode, IF v2.1 (array/string notEmpty), Respond to Webhook v1.1 JSON 201 + headers, v1.5 text 422',
  '31': 'Schedule Trigger v1 minutes, v1.1 cron, v1.2 months + weeks rules (activated) plus a Webhook into the same node; timezone/save settings, `$prevNode`',
  '32': 'Manual Trigger and Webhook into one Code node; Summarize v1 split by field, Sort, Set v3.1 include selected',
  '33': 'AI Agent v1.7 toolsAgent, Chat Trigger v1.1, OpenAI chat model v1, Window Buffer Memory v1.2, Calculator tool',
  '34': 'AI Agent v2.2 behind Webhook + Respond, OpenAI v1.2 (`__rl` model), memory v1.3 custom key, Code tool v1.3, HTTP Request tool v1.1, httpRequestTool v4.2 with `$fromAI`',
  '35': 'Basic LLM Chain v1.7 and v1.5 with output parsers, Structured Output Parser v1.3 (from JSON) and v1.2 (manual schema), OpenAI v1.3 and v1.1',
  '36': 'In-memory vector store v1.3 insert (embeddings v1.2, default data loader v1.1, recursive splitter) and retrieve-as-tool for AI Agent v3, Chat Trigger v1.3',
  '37': 'AI Agent v1 conversationalAgent and v1.9, memory v1 and v1.1, Calculator, Code tool v1.1 (named)',
  '38': 'Webhook v2.1 GET with `:customerId` path parameter and query, Respond to Webhook v1.2 all items + header',
  '39': 'End to end: Webhook responseNode, IF v2.2 array length, Switch v3.3 + fallback, Merge v3.1 three inputs, Aggregate, Respond v1.3 / v1.4',
  '40': 'Error workflow: Error Trigger, Set, Filter v2.1, HTTP Request v4.2 to an outside host',
};

/** The request body every webhook gets: a small order. */
const SAMPLE_ORDER = {
  name: 'Ada Lovelace',
  email: 'ADA@example.com',
  score: 42,
  country: 'GB',
  question: 'Where is my order?',
  tags: ['vip', 'beta', 'vip'],
  items: [
    { sku: 'A-1', qty: 2, price: 9.5, category: 'books' },
    { sku: 'B-2', qty: 1, price: 120, category: 'hardware' },
    { sku: 'A-1', qty: 2, price: 9.5, category: 'books' },
    { sku: 'C-3', qty: 5, price: 3.25, category: 'food' },
  ],
};

interface WorkflowNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  parameters: Record<string, any>;
  webhookId?: string;
  credentials?: Record<string, unknown>;
  disabled?: boolean;
}
interface Workflow {
  name: string;
  nodes: WorkflowNode[];
  connections: Record<string, unknown>;
  settings: Record<string, unknown>;
}
interface Row {
  file: string;
  parameters: string;
  saved: string;
  executed: string;
}

const n8n = await startRealN8n();
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${n8n.url}/api/v1${path}`, {
    method,
    headers: { 'X-N8N-API-KEY': n8n.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, ok: response.ok, json: (text ? JSON.parse(text) : undefined) as any, text };
};

const rows: Row[] = [];
const ids = new Map<string, string>(); // workflow name -> id
const subWorkflows: { row: Row; id: string }[] = [];
try {
  for (const file of readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const workflow = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Workflow;
    const row: Row = { file, parameters: parameterCheck(workflow), saved: '', executed: '' };
    rows.push(row);
    for (const node of workflow.nodes) {
      const ref = node.parameters.workflowId;
      if (ref?.__rl && ids.has(ref.cachedResultName)) ref.value = ids.get(ref.cachedResultName);
    }

    const created = await api('POST', '/workflows', workflow);
    if (!created.ok) {
      row.saved = `rejected (${created.status}: ${created.text.slice(0, 120)})`;
      row.executed = 'not run';
      continue;
    }
    const id = created.json.id as string;
    ids.set(workflow.name, id);
    const read = (await api('GET', `/workflows/${id}`)).json as Workflow;
    row.saved = sameWorkflow(workflow, read) ?? 'OK';

    const enabled = workflow.nodes.filter((n) => !n.disabled);
    const webhooks = enabled.filter((n) => n.type === 'n8n-nodes-base.webhook');
    const needsCredentials = enabled.some((n) => n.credentials || n.type.startsWith('@n8n/n8n-nodes-langchain.'));
    const credentials = [...new Set(enabled.flatMap((n) => Object.keys(n.credentials ?? {})))];
    if (needsCredentials) row.executed = `not run: needs credentials (${credentials.join(', ')})`;
    else if (webhooks.length === 0) row.executed = `not run: ${triggerKind(enabled)}`;
    if (row.executed) {
      if (enabled.some((n) => n.type === 'n8n-nodes-base.executeWorkflowTrigger')) subWorkflows.push({ row, id });
      else if (!needsCredentials && enabled.some((n) => n.type === 'n8n-nodes-base.scheduleTrigger')) {
        // Activation registers the schedules: check that it works, then switch off again.
        const activated = await api('POST', `/workflows/${id}/activate`);
        row.executed += activated.ok ? ' (activated OK)' : ` (activation failed: ${activated.text.slice(0, 80)})`;
        await api('POST', `/workflows/${id}/deactivate`);
      }
      continue;
    }

    const activated = await api('POST', `/workflows/${id}/activate`);
    if (!activated.ok) {
      row.executed = `activation failed (${activated.status}: ${activated.text.slice(0, 120)})`;
      continue;
    }
    const answers: number[] = [];
    for (const hook of webhooks) answers.push(await callWebhook(hook));
    row.executed = await waitForExecutions(id, webhooks.length, answers);
    await api('POST', `/workflows/${id}/deactivate`);
  }
  for (const { row, id } of subWorkflows) {
    const runs = (await api('GET', `/executions?workflowId=${id}`)).json.data as { status: string }[];
    if (runs.length > 0)
      row.executed = runs.every((r) => r.status === 'success') ? `success (${runs.length} runs, called by its caller)` : `failed: ${runs.map((r) => r.status)}`;
  }
} finally {
  await n8n.stop();
}

for (const row of rows) console.log(`${row.file.padEnd(44)} parameters: ${row.parameters}; saved: ${row.saved}; executed: ${row.executed}`);
writeReadme(rows);
const executed = rows.filter((r) => r.executed.startsWith('success')).length;
console.log(`${rows.length} workflows, ${rows.filter((r) => r.saved === 'OK').length} saved, ${executed} executed successfully`);
const failed = (r: Row) => !r.executed.startsWith('success') && !r.executed.startsWith('not run');
if (rows.some((r) => r.saved !== 'OK' || r.parameters !== 'clean' || failed(r))) process.exitCode = 1;

/** Undefined if n8n gave back what was sent (node fields and connections), else what differs. */
function sameWorkflow(sent: Workflow, read: Workflow): string | undefined {
  if (!isDeepStrictEqual(read.connections, sent.connections)) return 'differs: connections';
  for (const node of sent.nodes) {
    const back = read.nodes.find((n) => n.name === node.name) as Record<string, unknown> | undefined;
    if (!back) return `differs: node ${node.name} missing`;
    for (const [key, value] of Object.entries(node)) {
      if (!isDeepStrictEqual(back[key], value)) return `differs: ${node.name}.${key}`;
    }
  }
  return read.nodes.length === sent.nodes.length ? undefined : 'differs: node count';
}

function triggerKind(nodes: WorkflowNode[]): string {
  const types = nodes.map((n) => n.type);
  if (types.includes('n8n-nodes-base.executeWorkflowTrigger')) return 'sub-workflow, not called';
  if (types.includes('n8n-nodes-base.scheduleTrigger')) return 'schedule trigger';
  if (types.includes('n8n-nodes-base.errorTrigger')) return 'error trigger (runs when another workflow fails; posts to an outside host)';
  if (types.includes('n8n-nodes-base.manualTrigger')) return 'manual trigger only';
  return 'no trigger';
}

/** Calls a Webhook node's production URL; returns the HTTP status. */
async function callWebhook(node: WorkflowNode): Promise<number> {
  const method = (node.parameters.httpMethod as string | undefined) ?? 'GET';
  let path = node.parameters.path as string;
  // A path with parameters is served under the node's webhookId.
  if (path.includes(':')) path = `${node.webhookId}/${path.replace(/:(\w+)/g, 'cus_42')}`;
  const query = method === 'GET' ? '?expand=orders,invoices' : '';
  const response = await fetch(`${n8n.url}/webhook/${path}${query}`, {
    method,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(SAMPLE_ORDER),
  });
  await response.text();
  return response.status;
}

/** Waits for `count` finished executions of the workflow; "success" if they all succeeded. */
async function waitForExecutions(id: string, count: number, answers: number[]): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // Inline sub-workflows (fixture 24) are saved under their caller's id too: wait for all of them.
    const done = (await api('GET', `/executions?workflowId=${id}&includeData=true`)).json.data as any[];
    const finished = done.every((e) => !['new', 'running', 'waiting'].includes(e.status));
    if (finished && done.filter((e) => e.mode === 'webhook').length >= count) {
      const failed = done.find((e) => e.status !== 'success');
      if (failed) {
        const error = failed.data?.resultData?.error;
        return `${failed.status}: ${error?.node?.name ?? ''} ${error?.message ?? ''}`.trim();
      }
      const nodesRun = new Set(done.flatMap((e) => Object.keys(e.data?.resultData?.runData ?? {}))).size;
      if (answers.some((status) => status >= 400)) return `failed: webhook answered HTTP ${answers.join(', ')}`;
      return `success (HTTP ${answers.join(', ')}; ${nodesRun} nodes ran)`;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return `timeout: no finished execution after 30 s (HTTP ${answers.join(', ')})`;
}

/** Replaces the table between the markers in README.md. */
function writeReadme(result: Row[]): void {
  const file = join(DIR, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const lines = [
    `| File | Covers | Parameters | Saved (n8n ${N8N_VERSION}) | Executed (n8n ${N8N_VERSION}) |`,
    '| --- | --- | --- | --- | --- |',
    ...result.map((r) => `| \`${r.file}\` | ${COVERS[r.file.slice(0, 2)] ?? ''} | ${r.parameters} | ${r.saved} | ${r.executed.replaceAll('|', '\\|')} |`),
  ];
  const start = '<!-- table:start -->';
  const end = '<!-- table:end -->';
  const before = readme.slice(0, readme.indexOf(start) + start.length);
  const after = readme.slice(readme.indexOf(end));
  writeFileSync(file, `${before}\n${lines.join('\n')}\n${after}`);
}

/**
 * "clean", or what n8n's own parameter logic finds: a required parameter missing or invalid, or a parameter
 * the node would not show (wrong for its type version or settings, or misspelt).
 */
function parameterCheck(workflow: Workflow): string {
  const require = createRequire(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'));
  const { NodeHelpers } = require('n8n-workflow');
  const found: string[] = [];
  for (const node of workflow.nodes) {
    if (node.type === 'n8n-nodes-base.stickyNote') continue;
    const description = nodeDescription(require, node);
    if (!description) {
      found.push(`${node.name}: unknown ${node.type}@${node.typeVersion}`);
      continue;
    }
    const { properties } = description;
    const full = NodeHelpers.getNodeParameters(properties, node.parameters, true, false, node, description);
    const shown = NodeHelpers.getNodeParameters(properties, node.parameters, false, false, node, description) ?? {};
    const issues = NodeHelpers.getNodeParametersIssues(properties, { ...node, parameters: full }, description);
    if (issues?.parameters) found.push(`${node.name}: ${Object.keys(issues.parameters).join(', ')} invalid`);
    for (const [name, value] of Object.entries(node.parameters)) {
      // AI tool variants of regular nodes (httpRequestTool) get toolDescription from n8n at load time.
      if (name === 'toolDescription' && node.type.endsWith('Tool')) continue;
      if (!(name in shown) && !isDeepStrictEqual(value, full?.[name])) found.push(`${node.name}: ${name} ignored`);
    }
  }
  return found.length ? found.join('; ') : 'clean';
}

/** The description of a node's type version from the installed packages (`…Tool` types: the base node's). */
function nodeDescription(require: NodeJS.Require, node: WorkflowNode): { properties: unknown[]; version: number | number[] } | undefined {
  const [scope, typeName] = node.type.split('.') as [string, string];
  const pkg = scope === '@n8n/n8n-nodes-langchain' ? '@n8n/n8n-nodes-langchain' : 'n8n-nodes-base';
  const known = require(`${pkg}/dist/known/nodes.json`) as Record<string, { className: string; sourcePath: string }>;
  const entry = known[typeName] ?? (typeName.endsWith('Tool') ? known[typeName.slice(0, -4)] : undefined);
  if (!entry) return undefined;
  const instance = new (require(`${pkg}/${entry.sourcePath}`)[entry.className])();
  const description = instance.nodeVersions ? instance.nodeVersions[node.typeVersion]?.description : instance.description;
  if (!description || ![description.version].flat().includes(node.typeVersion)) return undefined;
  return description;
}
