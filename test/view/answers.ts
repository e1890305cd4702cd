/**
 * Real data for the workflow view's tests: the n8n workflows of test/fixtures/workflows, the n8n executions
 * of test/fixtures/executions, and the answers of the tools the view draws made from them as the tools make
 * them — by the same functions where those run without a Worker (the validator and autofix over the real
 * n8n node descriptions of test/support/n8nCatalog.ts, the diff, the edit operations, the run reports), and
 * otherwise in the shapes the tools' code and the real-n8n tests (test/e2e-n8n) show. `fakeN8nHost` answers
 * the reads and actions the view makes through the host from the same data.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { NodeLooks } from '../../src/catalog/nodeLooks';
import type { ToolResult } from '../../src/view/bridge';
import { failureOf, nodeSummaries, outputNamesOf, runPath, whereItemsStopped, type Execution } from '../../src/tools/n8n/executionReport';
import { autofix, autofixAnswer } from '../../src/workflows/autofix';
import { diffWorkflows } from '../../src/workflows/diff';
import { applyOperations, type Operation } from '../../src/workflows/operations';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { n8nCatalog } from '../support/n8nCatalog';
import type { ToolCall } from '../support/appHost';
import answeredRun from '../fixtures/executions/answered.json';
import failedRun from '../fixtures/executions/failed.json';
import stoppedRun from '../fixtures/executions/stopped.json';
import flowNodes from '../fixtures/n8n/flowNodes.json';
import n8nNodes from '../fixtures/n8n/nodes.json';

export type Json = Record<string, any>;

const WORKFLOWS = join(import.meta.dirname, '../fixtures/workflows');

/** Every real workflow of test/fixtures/workflows, by file name. */
export function allFixtures(): { file: string; workflow: Json }[] {
  return readdirSync(WORKFLOWS)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, workflow: JSON.parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as Json }));
}

/** A fresh copy of the fixture whose file name starts with `prefix` ("04" → 04-if-v1-branches.json). */
export function fixture(prefix: string): Json {
  const found = allFixtures().filter(({ file }) => file.startsWith(`${prefix}-`));
  if (found.length !== 1) throw new Error(`no single fixture workflow ${prefix}-*.json`);
  return found[0]!.workflow;
}

/** A fresh copy of a real n8n execution (test/fixtures/executions). */
export const execution = (which: 'failed' | 'answered' | 'stopped'): Json =>
  structuredClone({ failed: failedRun, answered: answeredRun, stopped: stoppedRun }[which]) as Json;

export const nodeNamed = (workflow: Json, name: string): Json => {
  const node = (workflow.nodes as Json[]).find((n) => n.name === name);
  if (!node) throw new Error(`no node "${name}"`);
  return node;
};

// --- How the view draws node types (src/catalog/nodeLooks.ts) ---

/** Where `npx tsx scripts/view/icons.ts` writes the looks built from n8n's packages (not committed: n8n's files are not in this repository). */
const BUILT_LOOKS = join(import.meta.dirname, '../../.catalog/view-looks.json');

/** Two icons in the form scripts/view/icons.ts gives them (a root with only xmlns and viewBox, ids prefixed), for when the built looks are not there. */
const STAND_IN_ICONS = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3a15 15 0 0 1 0 18"/></g></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="i1-a"><stop offset="0" stop-color="#ff6d5a"/><stop offset="1" stop-color="#ea4b71"/></linearGradient></defs><rect width="32" height="32" rx="6" fill="url(#i1-a)"/></svg>',
];

/**
 * The node looks the page is given: the ones built from n8n's packages when this machine has them, else
 * the names and colours of the real n8n node descriptions of test/fixtures/n8n (the types the import
 * tests use) with two stand-in icons (Webhook, HTTP Request and IF draw one; every other type its initials).
 */
export function nodeLooks(): NodeLooks {
  if (existsSync(BUILT_LOOKS)) return JSON.parse(readFileSync(BUILT_LOOKS, 'utf8')) as NodeLooks;
  const types: NodeLooks['types'] = {};
  for (const file of [n8nNodes, flowNodes] as unknown as Record<string, { name: string; displayName: string; defaults?: { color?: string } }[]>[])
    for (const [prefix, descriptions] of Object.entries(file))
      for (const description of descriptions)
        types[`${prefix}.${description.name}`] ??= { name: description.displayName, color: description.defaults?.color ?? null };
  const withIcon = { 'n8n-nodes-base.webhook': 0, 'n8n-nodes-base.httpRequest': 0, 'n8n-nodes-base.if': 1 };
  for (const [type, icon] of Object.entries(withIcon)) types[type] = { name: types[type]?.name ?? type, color: types[type]?.color ?? null, icon };
  return { about: 'test/view: the names and colours of test/fixtures/n8n, with stand-in icons', types, icons: STAND_IN_ICONS };
}

// --- How a value becomes a tool result (src/server/formatResult.ts, src/tools/tool.ts) ---

/** A tool result as the host sends it (the SDK's type) and as the view reads it (src/view/bridge.ts). */
export type Answer = CallToolResult & ToolResult;

/** What the test host recorded as an answer, as the view reads it. */
export const asAnswer = (result: CallToolResult | undefined): Answer =>
  (result ?? { isError: true, content: [{ type: 'text', text: 'Error: no answer' }] }) as Answer;

/** formatToolResult: compact JSON text; structuredContent only for a tool that declares an output (of the drawn tools, validate_workflow). */
export const answered = (value: unknown, structured = false): Answer => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
});

/** formatError of a ToolError: the sentence after "Error: ". */
export const failed = (message: string): Answer => ({ isError: true, content: [{ type: 'text', text: `Error: ${message}` }] });

/** refusal(details): an isError result whose text is JSON. */
export const refused = (details: Json): Answer => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(details) }] });

// --- Workflows as n8n holds them ---

/** n8n's public API answer for a saved workflow (get_workflow's answer, with no users:read). */
export function saved(workflow: Json, id: string, extra: Json = {}): Json {
  return {
    id,
    name: workflow.name,
    active: false,
    isArchived: false,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-26T23:24:29.819Z',
    versionId: `v-${id}`,
    activeVersionId: null,
    nodes: workflow.nodes,
    connections: workflow.connections,
    settings: workflow.settings ?? { executionOrder: 'v1' },
    staticData: null,
    pinData: {},
    tags: [],
    ...extra,
  };
}

/** get_workflow_version's answer (src/tools/n8n/versions.ts): the kept version's record and its workflow. */
export function keptVersion(id: string, version: number, workflow: Json, change = 'edit'): Json {
  return {
    version: {
      version,
      at: '2026-11-26T22:00:00.000Z',
      bytes: JSON.stringify(workflow).length,
      name: workflow.name,
      versionId: `v-${id}-${version}`,
      active: false,
      nodes: (workflow.nodes as unknown[]).length,
      by: 'key_view_tests',
      change,
      reason: `${change}_workflow`,
    },
    workflow: saved(workflow, id, { versionId: `v-${id}-${version}` }),
  };
}

/** The workflow summary create/update answer with (src/tools/n8n/workflows.ts `described`: nodes is a count). */
export const summaryOf = (workflow: Json, id: string, extra: Json = {}): Json => ({
  id,
  name: workflow.name,
  active: false,
  updatedAt: '2026-11-26T23:24:29.819Z',
  nodes: (workflow.nodes as unknown[]).length,
  tags: [],
  versionId: `v-${id}`,
  liveVersionId: null,
  ...extra,
});

// --- Validation and fixes (the real validator over real n8n node descriptions) ---

/**
 * Fixture 39 (order fulfilment) with mistakes autofix_workflow is sure of — an IF typed "iF", a Set at a
 * typeVersion it lacks, connections from a node that does not exist — and one it is not: a connection from
 * a third output of the IF, which has two. The validator also finds what it finds of the real workflow
 * (warnings on "New Order" and "Lines").
 */
export function brokenOrders(): Json {
  const workflow = fixture('39');
  nodeNamed(workflow, 'Has Lines?').type = 'n8n-nodes-base.iF';
  nodeNamed(workflow, 'Media Mail').typeVersion = 9;
  workflow.connections.Ghost = { main: [[{ node: 'Lines', type: 'main', index: 0 }]] };
  workflow.connections['Has Lines?'].main[2] = [{ node: 'Reject', type: 'main', index: 0 }];
  return workflow;
}

export const validation = (workflow: Json): Json => validateWorkflow(workflow, n8nCatalog) as unknown as Json;

/** validate_workflow's answer (src/tools/validation/validateWorkflow.ts): the findings, text and structured. */
export const validateAnswer = (workflow: Json): Answer => answered(validation(workflow), true);

/** autofix_workflow's value (src/tools/validation/autofixWorkflow.ts run), from the real autofix. */
export function autofixValue(workflow: Json): Json {
  return autofixAnswer(autofix(workflow, n8nCatalog, { newId: () => '00000000-0000-4000-8000-000000000000' }));
}

// --- Runs (the real run reports over real executions) ---

const triggerOf = (execution: Json): string => runPath(execution as Execution)[0]!;

/** The run report test_workflow answers for an execution (src/tools/n8n/testWorkflow.ts `report`), outputs labelled as the catalog names them. */
export function runReport(run: Json): Json {
  const execution = run as Execution;
  const outputNames = outputNamesOf(run.workflowData.nodes, n8nCatalog);
  const samples = { trigger: triggerOf(run), outputNames };
  const status = execution.status ?? 'error';
  const failure = failureOf(execution, samples);
  const stopped = failure ? undefined : whereItemsStopped(execution, triggerOf(run), outputNames);
  return {
    id: String(run.id),
    status,
    verdict: failure ? `failed: "${failure.node}" stopped the run: ${failure.error}` : status,
    ...(failure ? { failed: failure } : {}),
    ...(stopped?.stops.length ? { stops: stopped.stops } : {}),
    ...(stopped?.didNotRun.length ? { didNotRun: stopped.didNotRun } : {}),
    path: runPath(execution),
    nodes: nodeSummaries(execution, samples),
  };
}

/** test_workflow's answer for one run (testWorkflow.ts :234-244). */
export function testAnswer(run: Json): Json {
  return {
    workflow: { id: run.workflowId, name: run.workflowData.name, activatedForTheRun: false, ranVersionId: run.workflowData.activeVersionId },
    trigger: {
      node: triggerOf(run),
      url: `http://127.0.0.1:5678/webhook/${nodeNamed(run.workflowData, triggerOf(run)).parameters.path}`,
      status: 500,
      response: { message: 'Error in workflow' },
    },
    execution: runReport(run),
  };
}

/** get_execution's error view (src/tools/n8n/executions.ts errorView). */
export function errorView(run: Json): Json {
  const execution = run as Execution;
  const failure = failureOf(execution);
  return {
    id: String(run.id),
    workflowId: run.workflowId,
    status: run.status,
    startedAt: run.startedAt,
    stoppedAt: run.stoppedAt,
    ...(failure ? { failed: failure } : { note: `This execution has no failed node (status ${run.status}).` }),
    path: runPath(execution),
    nodes: nodeSummaries(execution),
  };
}

/** get_execution's record without data (no includeData): n8n's execution fields only. */
export function executionRecord(run: Json): Json {
  const { data: _data, workflowData: _workflowData, ...record } = run;
  return record;
}

/** get_execution's answer for data over 20,000 characters, summarised per node (executions.ts `summarised`). */
export function summarisedExecution(run: Json): Json {
  const { runData: _runData, ...rest } = run.data.resultData;
  const { workflowData: _workflowData, ...withoutWorkflow } = run;
  return {
    ...withoutWorkflow,
    data: { resultData: { ...rest, nodes: nodeSummaries(run as Execution) } },
    dataTrimmed: 'Execution data over 20000 characters is summarised per node; call with fullData: true for all of it.',
  };
}

// --- Changes ---

/** diff_workflow_versions' answer (src/tools/n8n/versions.ts): the real diff of two workflows. */
export const diffAnswer = (id: string, from: number | 'current', to: number | 'current', a: Json, b: Json): Json => ({ id, from, to, ...diffWorkflows(a, b) });

/** The workflow after edit_workflow's operations (the real operations). */
export function edited(workflow: Json, operations: Json[]): Json {
  const outcome = applyOperations(structuredClone(workflow), operations as unknown as Operation[], () => '00000000-0000-4000-8000-00000000abcd');
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.workflow as Json;
}

/** edit_workflow's saved answer (src/tools/n8n/editWorkflow.ts): counts, the findings of the edited workflow, the version it replaced. */
export function editAnswer(id: string, after: Json, operations: Json[], previousVersion: number): Json {
  const { valid, errors, warnings } = validation(after);
  return { saved: true, id, versionId: `v-${id}`, liveVersionId: null, operations: operations.length, valid, errors, warnings, previousVersion };
}

// --- A host that answers the view's reads and actions from this data ---

export interface N8nState {
  /** Saved workflows by id (as given to create/update: saved() wraps them). */
  workflows?: Record<string, Json>;
  /** Kept versions: `${id}@${version}`. */
  versions?: Record<string, Json>;
  /** Executions by id, raw as n8n keeps them. */
  executions?: Record<string, Json>;
  /** What run_workflow_tests answers, by workflow id. */
  tests?: Record<string, Json>;
  /** What restore_workflow_version answers, by `${id}@${version}`. */
  restores?: Record<string, Json>;
  /** Milliseconds to wait before answering a call, by tool name. */
  delay?: Record<string, number>;
}

/** Answers tools/call as the server would for the data in `state`; a read of something it lacks gets n8n's 404 as the tools say it. */
export function fakeN8nHost(state: N8nState): (call: ToolCall) => Promise<Answer> {
  return async ({ name, arguments: args }) => {
    const wait = state.delay?.[name];
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    const id = String(args.id);
    switch (name) {
      case 'get_workflow': {
        const workflow = state.workflows?.[id];
        return workflow ? answered(saved(workflow, id)) : failed(`Not found (404): n8n has no workflow ${id}.`);
      }
      case 'get_workflow_version': {
        const workflow = state.versions?.[`${id}@${String(args.version)}`];
        return workflow
          ? answered(keptVersion(id, Number(args.version), workflow))
          : failed(`Workflow ${id} has no version ${String(args.version)} in this server's history.`);
      }
      case 'get_execution': {
        const run = state.executions?.[id];
        if (!run) return failed('Not found (404)');
        return answered(args.view === 'error' ? errorView(run) : run);
      }
      case 'validate_workflow':
        return validateAnswer(args.workflow as Json);
      case 'autofix_workflow':
        return answered(autofixValue(args.workflow as Json));
      case 'edit_workflow': {
        // The sure fixes of the saved workflow, saved (operations: [], autofix: true), the version it replaces kept.
        const workflow = state.workflows?.[id];
        if (!workflow) return failed(`Not found (404): n8n has no workflow ${id}.`);
        if (args.expectedVersionId !== undefined && args.expectedVersionId !== `v-${id}`)
          return failed(`Workflow ${id} has changed since the copy you started from.`);
        const fixed = autofix(workflow, n8nCatalog, { newId: () => '00000000-0000-4000-8000-000000000000' });
        const previousVersion = Object.keys(state.versions ?? {}).filter((key) => key.startsWith(`${id}@`)).length + 1;
        state.versions = { ...state.versions, [`${id}@${previousVersion}`]: workflow };
        state.workflows = { ...state.workflows, [id]: fixed.workflow as Json };
        const { valid, errors, warnings } = fixed.after;
        const fixes = fixed.fixes.filter((f) => f.applied).map((f) => f.description);
        return answered({ saved: true, id, versionId: `v-${id}`, liveVersionId: null, operations: 0, fixes, valid, errors, warnings, previousVersion });
      }
      case 'run_workflow_tests':
        return state.tests?.[id] ? answered(state.tests[id]) : failed(`Workflow ${id} has no saved tests.`);
      case 'restore_workflow_version': {
        const restore = state.restores?.[`${id}@${String(args.version)}`];
        return restore ? answered(restore) : failed(`Workflow ${id} has no version ${String(args.version)} in this server's history.`);
      }
      default:
        return failed(`no answer for ${name}`);
    }
  };
}

// --- A large workflow ---

/**
 * The real workflows of test/fixtures/workflows side by side in one, packed in rows 6,000 units wide (as
 * dense as a large canvas drawn by hand), until it has at least `count` nodes (sticky notes not counted):
 * each keeps its nodes, positions (moved to its place) and connections, its node names prefixed with its
 * number so they stay apart.
 */
export function manyWorkflows(count: number): Json {
  const nodes: Json[] = [];
  const connections: Json = {};
  const fixtures = allFixtures();
  let [x, y, rowHeight, used] = [0, 0, 0, 0];
  for (const { file, workflow } of fixtures) {
    if (nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length >= count) break;
    const prefix = `${file.slice(0, 2)} `;
    used += 1;
    const xs = (workflow.nodes as Json[]).map((n) => n.position[0] as number);
    const ys = (workflow.nodes as Json[]).map((n) => n.position[1] as number);
    const [width, height] = [Math.max(...xs) - Math.min(...xs) + 300, Math.max(...ys) - Math.min(...ys) + 250];
    if (x > 0 && x + width > 6000) [x, y, rowHeight] = [0, y + rowHeight, 0];
    const [dx, dy] = [x - Math.min(...xs), y - Math.min(...ys)];
    [x, rowHeight] = [x + width, Math.max(rowHeight, height)];
    for (const node of workflow.nodes as Json[]) nodes.push({ ...node, name: prefix + node.name, position: [node.position[0] + dx, node.position[1] + dy] });
    for (const [from, byType] of Object.entries(workflow.connections as Json))
      connections[prefix + from] = Object.fromEntries(
        Object.entries(byType as Json).map(([type, outputs]) => [
          type,
          (outputs as (Json[] | null)[]).map((targets) => (targets ?? []).map((t) => ({ ...t, node: prefix + t.node }))),
        ]),
      );
  }
  return { name: `${nodes.length} nodes of ${used} real workflows`, nodes, connections, settings: { executionOrder: 'v1' } };
}

// --- Calls recorded against a real n8n (test/e2e-n8n/workflowView.test.ts, RECORD_VIEW_FIXTURES=1) ---

export interface RecordedRead {
  name: string;
  arguments: Json;
  result?: Answer;
  error?: string;
}

export interface RecordedCall {
  tool: string;
  arguments: Json;
  result: Answer;
  /** The reads and actions the view made through the host, with the real answers. */
  view: RecordedRead[];
}

const RECORDED = join(import.meta.dirname, '../fixtures/view/real');

/** Every recorded call, by its file's name ("get_execution-record"). */
export function recordedCalls(): { name: string; call: RecordedCall }[] {
  if (!existsSync(RECORDED)) return [];
  return readdirSync(RECORDED)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ name: file.replace(/\.json$/, ''), call: JSON.parse(readFileSync(join(RECORDED, file), 'utf8')) as RecordedCall }));
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sortedKeys((value as Json)[k])]),
        )
      : value;

/** The recorded answer to a read of the same tool with the same arguments (each answer once, in order); one never made: an error sentence. */
export function replay(reads: readonly RecordedRead[]): (call: ToolCall) => Answer {
  const left = [...reads];
  return ({ name, arguments: args }) => {
    const i = left.findIndex((read) => read.name === name && sameJson(read.arguments, args) && read.result);
    if (i < 0) return failed(`no recorded answer for ${name} ${JSON.stringify(args)}`);
    return left.splice(i, 1)[0]!.result!;
  };
}
