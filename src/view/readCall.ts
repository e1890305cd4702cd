import type { ToolResult } from './bridge';
import { dict, own, type Dict } from '../lib/ownKeys';
import { emptyScene, type Action, type Finding, type Mark, type NodeRun, type Scene } from './scene';
import { readWorkflow, record, type ViewNode, type ViewWorkflow } from './workflow';

/**
 * What the view shows for a call of one of the tools it draws (src/server/view.ts lists them): read
 * from the call's arguments and its answer, as each tool gives them (docs/workflow-view.md). Where the
 * answer names a workflow, a version or a run it does not hold, the scene says which read would give
 * it (`fetch`), and `withFetched` lays that read's answer in. Pure: no DOM, no I/O.
 */

type Json = Record<string, unknown>;

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('x') ? 'es' : 's'}`;

/** Two Dicts as one; the second's entries win. */
const merged = <T>(a: Dict<T>, b: Dict<T>): Dict<T> => dict([...Object.entries(a), ...Object.entries(b)]);

/** The answer's JSON (structured, or its text), or its words when it is an error sentence. */
export function answerOf(result: ToolResult): { json?: Json; text: string } {
  if (result.structuredContent) return { json: result.structuredContent, text: '' };
  const text = (result.content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('\n');
  if (text.trimStart().startsWith('{')) {
    try {
      const json = record(JSON.parse(text));
      if (json) return { json, text };
    } catch {
      // Not JSON after all: its words are the answer.
    }
  }
  return { text };
}

/** Findings as the validator gives them (errors, warnings: each naming its node), by node; the workflow's own under "". */
function findingsOf(validation: unknown): Dict<Finding[]> {
  const byNode = dict<Finding[]>();
  const answer = record(validation) ?? {};
  for (const [key, severity] of [
    ['errors', 'error'],
    ['warnings', 'warning'],
  ] as const) {
    for (const item of list(answer[key])) {
      const finding = record(item);
      if (!finding) continue;
      const node = str(finding.node) ?? '';
      (byNode[node] ??= []).push({
        severity,
        message: str(finding.message) ?? '',
        ...(str(finding.code) ? { code: str(finding.code) } : {}),
        ...(str(finding.path) ? { path: str(finding.path) } : {}),
      });
    }
  }
  return byNode;
}

const count = (findings: Dict<Finding[]>, severity: Finding['severity']) =>
  Object.values(findings).reduce((n, list) => n + list.filter((f) => f.severity === severity).length, 0);

function findingsSummary(findings: Dict<Finding[]>, omitted?: unknown): string {
  // Past the first hundred of each, the validator counts the rest (`omitted`): the summary says all of them.
  const left = record(omitted) ?? {};
  const errors = count(findings, 'error') + (Number(left.errors) || 0);
  const warnings = count(findings, 'warning') + (Number(left.warnings) || 0);
  return errors + warnings === 0
    ? 'No findings'
    : [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
}

/** Node by node, what changed from one workflow to the next: added, removed, or any of its settings changed. */
export function compare(before: ViewWorkflow, after: ViewWorkflow): Dict<Mark> {
  const marks = dict<Mark>();
  const old = new Map(before.nodes.map((node) => [node.name, node]));
  // Each node's connections, both ends, found once per workflow (not by a pass over all edges per node).
  const byNode = (workflow: ViewWorkflow) => {
    const ends = new Map<string, string[]>();
    for (const e of workflow.edges) {
      const line = JSON.stringify([e.from, e.type, e.output, e.to, e.input]);
      for (const name of new Set([e.from, e.to])) ends.set(name, [...(ends.get(name) ?? []), line]);
    }
    return (name: string) => (ends.get(name) ?? []).sort().join('\n');
  };
  const edgesBefore = byNode(before);
  const edgesAfter = byNode(after);
  for (const node of after.nodes) {
    const was = old.get(node.name);
    if (!was) marks[node.name] = 'added';
    else if (nodeKey(was) !== nodeKey(node) || edgesBefore(node.name) !== edgesAfter(node.name)) marks[node.name] = 'changed';
  }
  const now = new Set(after.nodes.map((node) => node.name));
  for (const node of before.nodes) if (!now.has(node.name)) marks[node.name] = 'removed';
  return marks;
}

const nodeKey = (node: ViewNode) => JSON.stringify([node.type, node.typeVersion, node.position, node.disabled, node.notes, sorted(node.parameters)]);
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : record(value)
      ? Object.fromEntries(
          Object.keys(value as Json)
            .sort()
            .map((k) => [k, sorted(own(value as Json, k))]),
        )
      : value;

/**
 * A node's status in n8n's words as the view draws it: success only when n8n says so (or says nothing, as a
 * summary of a node that ran does); a crash is an error; anything else (waiting, running, canceled) is not done.
 */
const statusOf = (status: unknown): NodeRun['status'] =>
  status === undefined || status === 'success' ? 'success' : status === 'error' || status === 'crashed' || status === 'failed' ? 'error' : 'waiting';

/** What each node did in a run, from a run report's node summaries (test_workflow, try_nodes, get_execution's error view). */
export function runsOf(report: unknown): Dict<NodeRun> {
  const runs = dict<NodeRun>();
  const answer = record(report) ?? {};
  const path = list(answer.path).map(str);
  for (const item of list(answer.nodes)) {
    const node = record(item);
    const name = str(node?.node);
    if (!node || name === undefined) continue;
    const items = Array.isArray(node.items) ? node.items.map(Number) : list(node.outputs).map((o) => Number(record(o)?.count ?? 0));
    const order = path.indexOf(name);
    runs[name] = {
      status: statusOf(node.status),
      items,
      ...(str(node.error) ? { error: str(node.error) } : {}),
      ...(node.sample === undefined ? {} : { output: node.sample }),
      ...(order >= 0 ? { order: order + 1 } : {}),
    };
  }
  const failed = record(answer.failed);
  const failedNode = str(failed?.node);
  if (failed && failedNode !== undefined) {
    const input = record(failed.input);
    const received = {
      ...(input ? { from: input.from, items: input.items, samples: input.samples } : {}),
      ...(failed.item === undefined ? {} : { failingItem: failed.item }),
    };
    runs[failedNode] = {
      ...(runs[failedNode] ?? { items: [] }),
      status: 'error',
      error: str(failed.error) ?? 'failed',
      ...(Object.keys(received).length ? { received } : {}),
    };
  }
  return runs;
}

/** What each node did, from n8n's raw execution data (`data.resultData.runData`). */
export function runsOfRunData(execution: unknown): Dict<NodeRun> {
  const resultData = record(record(record(execution)?.data)?.resultData);
  const runData = record(resultData?.runData);
  const runs = dict<NodeRun>();
  if (!runData) return runs;
  const ordered = Object.entries(runData)
    .map(([name, value]) => ({ name, last: record(list(value).at(-1)) }))
    .filter((entry): entry is { name: string; last: Json } => entry.last !== undefined)
    .sort((a, b) => Number(a.last.executionIndex ?? a.last.startTime ?? 0) - Number(b.last.executionIndex ?? b.last.startTime ?? 0));
  ordered.forEach(({ name, last }, index) => {
    const outputs = list(record(last.data)?.main);
    const error = record(last.error);
    runs[name] = {
      status: error || last.executionStatus === 'error' ? 'error' : 'success',
      items: outputs.map((output) => list(output).length),
      ...(error ? { error: str(error.message) ?? 'failed' } : {}),
      ...(outputs.length && list(outputs[0]).length
        ? {
            output: list(outputs[0])
              .slice(0, 3)
              .map((item) => record(item)?.json),
          }
        : {}),
      order: index + 1,
    };
  });
  return runs;
}

/** The workflow in an answer: the answer itself (get_workflow), or under `workflow` / `workflowData`. */
function workflowIn(answer: Json | undefined): ViewWorkflow | undefined {
  const source = Array.isArray(answer?.nodes) ? answer : (record(answer?.workflow) ?? record(answer?.workflowData));
  // An outline (a workflow too large for one answer) has no positions to draw.
  if (!source || list(source.nodes).some((node) => !Array.isArray(record(node)?.position))) return undefined;
  return readWorkflow(source);
}

/** try_nodes' nodes as a workflow: its connections, or else the chain it runs them in, at the places it would put them. */
function triedWorkflow(args: Json): ViewWorkflow | undefined {
  const nodes = list(args.nodes).map((node, i) => {
    const value = record(node) ?? {};
    return Array.isArray(value.position) ? value : { ...value, position: [400 + 200 * i, 0] };
  });
  const chain = dict<Json>();
  nodes.forEach((node, i) => {
    const next = nodes[i + 1];
    if (next && typeof node.name === 'string') chain[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
  });
  return readWorkflow({ nodes, connections: record(args.connections) ?? chain });
}

const instanceOf = (args: Json): Json => (typeof args.instance === 'string' ? { instance: args.instance } : {});

/** The read that gives a workflow's current graph, or a kept version's. */
const readVersion = (args: Json, id: string, version: unknown, into: 'workflow' | 'before') =>
  typeof version === 'number'
    ? { tool: 'get_workflow_version', arguments: { id, version, ...instanceOf(args) }, into }
    : { tool: 'get_workflow', arguments: { id, ...instanceOf(args) }, into };

/** The tools whose `id` is a saved workflow's, other than get_workflow itself: a refusal of one is shown on the workflow, read again. */
const ABOUT_A_SAVED_WORKFLOW = new Set([
  'update_workflow',
  'edit_workflow',
  'test_workflow',
  'run_workflow_tests',
  'restore_workflow_version',
  'diff_workflow_versions',
  'get_workflow_version',
]);

const TITLES: Record<string, string> = {
  validate_workflow: 'Checked',
  autofix_workflow: 'Sure fixes',
  get_workflow: 'Workflow',
  get_template: 'Template',
  get_workflow_version: 'Version',
  create_workflow: 'Created',
  update_workflow: 'Updated',
  edit_workflow: 'Edited',
  test_workflow: 'Test run',
  run_workflow_tests: 'Saved tests',
  try_nodes: 'Tried',
  get_execution: 'Execution',
  diff_workflow_versions: 'Changes',
  restore_workflow_version: 'Restored',
};

/**
 * Which tool a call was, from its arguments and answer: hosts need not say (the host context's toolInfo is
 * optional in MCP Apps). Each drawn tool's answer has fields no other has; '' when none fits.
 */
export function toolOf(args: Json, result: ToolResult): string {
  const answer = answerOf(result).json ?? {};
  const nodes = record(answer.nodes);
  if (Array.isArray(answer.fixes) && record(answer.after)) return 'autofix_workflow';
  if (answer.restored === true) return 'restore_workflow_version';
  if (nodes && Array.isArray(nodes.added)) return 'diff_workflow_versions';
  if (record(answer.trigger) || Array.isArray(answer.cases)) return 'test_workflow';
  if (Array.isArray(answer.tests)) return 'run_workflow_tests';
  if (Array.isArray(args.operations)) return 'edit_workflow';
  if (answer.cleanUp !== undefined) return 'try_nodes';
  if (typeof answer.licence === 'string') return 'get_template';
  if (record(answer.version) && record(answer.workflow)) return 'get_workflow_version';
  if (typeof answer.finished === 'boolean' || Array.isArray(answer.path) || record(answer.data) || record(answer.workflowData)) return 'get_execution';
  if (typeof answer.valid === 'boolean' && args.workflow !== undefined) return 'validate_workflow';
  if (typeof answer.nodes === 'number' && args.workflow !== undefined)
    return args.id !== undefined || answer.previousVersion !== undefined ? 'update_workflow' : 'create_workflow';
  if (Array.isArray(answer.nodes)) return 'get_workflow';
  return '';
}

export function readCall(tool: string, args: Json, result: ToolResult): Scene {
  const { json, text } = answerOf(result);
  const answer = json ?? {};
  const scene = emptyScene(own(TITLES, tool) ?? tool);
  const id = str(args.id) ?? str(answer.id);
  const name = (workflow: unknown) => str(record(workflow)?.name);
  const titled = (what: string | undefined) => (scene.title = what ? `${scene.title}: ${what}` : scene.title);

  if (result.isError) {
    // A refusal names what was wrong, on the workflow the call sent.
    scene.error = str(answer.reason) ?? str(answer.answerTooLarge) ?? text.replace(/^Error: /, '');
    scene.findings = findingsOf(answer);
    scene.workflow = tool === 'try_nodes' ? triedWorkflow(args) : readWorkflow(args.workflow);
    titled(name(args.workflow));
    scene.summary = `Not done. ${findingsSummary(scene.findings, answer.omitted)}`;
    // Reading the workflow again only helps where the call was not that read (a get_workflow's 404 would repeat).
    if (!scene.workflow && id && ABOUT_A_SAVED_WORKFLOW.has(tool)) scene.fetch = [readVersion(args, id, undefined, 'workflow')];
    return scene;
  }

  switch (tool) {
    case 'validate_workflow': {
      scene.workflow = readWorkflow(args.workflow);
      scene.findings = findingsOf(answer);
      titled(name(args.workflow));
      scene.summary =
        answer.valid === true ? `Valid. ${findingsSummary(scene.findings, answer.omitted)}` : `Not valid: ${findingsSummary(scene.findings, answer.omitted)}`;
      if (answer.valid === false)
        scene.actions.push({
          label: 'Apply the sure fixes',
          tool: 'autofix_workflow',
          arguments: { workflow: args.workflow },
          hint: 'Shows the fixes autofix_workflow is sure of, before and after',
        });
      break;
    }
    case 'autofix_workflow': {
      scene.before = readWorkflow(args.workflow);
      scene.workflow = readWorkflow(answer.workflow) ?? scene.before;
      scene.findings = findingsOf(answer.after);
      for (const item of list(answer.fixes)) {
        const fix = record(item);
        if (!fix) continue;
        (scene.findings[str(fix.node) ?? ''] ??= []).push({
          severity: 'info',
          message: str(fix.description) ?? '',
          ...(str(fix.kind) ? { code: str(fix.kind) } : {}),
          ...(str(fix.path) ? { path: str(fix.path) } : {}),
          fix: fix.applied === true ? 'made' : `not made (${str(fix.confidence) ?? 'unsure'}): check it yourself`,
        });
      }
      if (scene.before && scene.workflow) scene.marks = compare(scene.before, scene.workflow);
      const before = record(answer.before);
      titled(name(args.workflow));
      // A saved workflow's (it has its id and versionId): the fixes are saved by edit_workflow, refused if it changed since.
      const sent = record(args.workflow) ?? {};
      if (Number(answer.applied ?? 0) > 0 && str(sent.id) && str(sent.versionId))
        scene.actions.push({
          label: 'Save the sure fixes',
          tool: 'edit_workflow',
          arguments: { id: str(sent.id), operations: [], autofix: true, expectedVersionId: str(sent.versionId) },
          hint: `Makes these fixes in workflow ${str(sent.id)}, unless it changed since it was read`,
        });
      scene.summary = `${plural(Number(answer.applied ?? 0), 'sure fix')} made; errors ${Number(before?.errors ?? 0)} → ${count(scene.findings, 'error')}, warnings ${Number(before?.warnings ?? 0)} → ${count(scene.findings, 'warning')}`;
      break;
    }
    case 'get_workflow':
    case 'get_workflow_version':
    case 'get_template': {
      scene.workflow = workflowIn(answer);
      const workflow = record(answer.workflow) ?? answer;
      titled(str(answer.name) ?? str(workflow.name));
      scene.summary =
        tool === 'get_template'
          ? `${str(answer.licence) ?? ''}${str(answer.author) ? `, by ${str(answer.author)}` : ''}`
          : tool === 'get_workflow_version'
            ? `Version ${String(record(answer.version)?.version ?? args.version)} of workflow ${id ?? ''}`
            : `${workflow.active === true ? 'Active' : 'Inactive'}${str(answer.draft) ? ' · the saved version is not the published one' : ''}`;
      if (!scene.workflow) scene.error = 'This workflow is too large for one answer: it is not drawn.';
      // Some of its nodes only (get_workflow with nodes): drawn as such, and not checked as if they were all of it.
      const partial = str(answer.partial);
      if (partial) scene.summary = `${scene.summary} · ${partial}`;
      if (tool === 'get_workflow' && id && scene.workflow) {
        if (!partial)
          scene.actions.push({ label: 'Check it', tool: 'validate_workflow', arguments: { workflow: answer }, hint: 'Finds what is wrong, node by node' });
        scene.actions.push({ label: 'Run the saved tests', tool: 'run_workflow_tests', arguments: { id, ...instanceOf(args) } });
      }
      if (tool === 'get_workflow_version' && id && typeof args.version === 'number')
        scene.actions.push({
          label: `Restore version ${args.version}`,
          tool: 'restore_workflow_version',
          arguments: { id, version: args.version, ...instanceOf(args) },
        });
      break;
    }
    case 'create_workflow':
    case 'update_workflow': {
      scene.workflow = readWorkflow(args.workflow);
      scene.findings = findingsOf(answer.validation);
      titled(str(answer.name) ?? name(args.workflow));
      if (tool === 'create_workflow' && scene.workflow) for (const node of scene.workflow.nodes) scene.marks[node.name] = 'added';
      const previous = answer.previousVersion;
      scene.summary = `${tool === 'create_workflow' ? 'Created' : 'Saved'} workflow ${id ?? ''}${answer.active === true ? ', active' : ''}. ${findingsSummary(scene.findings, record(answer.validation)?.omitted)}${str(answer.unchanged) ? `. ${str(answer.unchanged)}` : ''}`;
      if (id && typeof previous === 'number') {
        scene.fetch = [readVersion(args, id, previous, 'before')];
        scene.actions.push(undo(args, id, previous));
      }
      break;
    }
    case 'edit_workflow': {
      scene.workflow = readWorkflow(answer.workflow);
      scene.findings = findingsOf(answer);
      titled(id);
      const fixes = list(answer.fixes).map(str).filter(Boolean);
      scene.summary = `${answer.preview === true ? 'Preview, not saved' : 'Saved'}: ${plural(Number(answer.operations ?? 0), 'operation')}${fixes.length ? `, ${plural(fixes.length, 'sure fix')}` : ''}. ${findingsSummary(scene.findings, answer.omitted)}`;
      for (const operation of list(args.operations)) {
        const op = record(operation) ?? {};
        // updateName's `name` is the workflow's new name, not a node's.
        if (op.type === 'updateName') continue;
        const named = str(op.newName) ?? str(op.name) ?? str(record(op.node)?.name);
        if (named) scene.marks[named] = op.type === 'addNode' ? 'added' : op.type === 'removeNode' ? 'removed' : 'changed';
      }
      const previous = answer.previousVersion;
      if (id) {
        scene.fetch = [];
        if (!scene.workflow) scene.fetch.push(readVersion(args, id, undefined, 'workflow'));
        if (typeof previous === 'number') {
          scene.fetch.push(readVersion(args, id, previous, 'before'));
          scene.actions.push(undo(args, id, previous));
        } else if (answer.preview === true) scene.fetch.push(readVersion(args, id, undefined, 'before'));
      }
      break;
    }
    case 'test_workflow':
    case 'run_workflow_tests': {
      const workflow = record(answer.workflow);
      titled(str(workflow?.name) ?? id);
      const execution = record(answer.execution);
      const cases = list(answer.cases ?? answer.tests)
        .map(record)
        .filter((c): c is Json => c !== undefined);
      if (execution) {
        scene.runs = runsOf(execution);
        scene.summary = str(execution.verdict) ?? str(execution.status) ?? '';
      } else {
        const passed = cases.filter((c) => c.passed === true).length;
        scene.summary = cases.length ? `${passed} of ${plural(cases.length, 'test')} passed` : (str(answer.note) ?? 'No tests');
        for (const c of cases)
          if (c.passed !== true)
            scene.findings[''] = [
              ...(scene.findings[''] ?? []),
              ...list(c.failures).map((f) => ({ severity: 'error' as const, message: `${str(c.name) ?? 'test'}: ${String(f)}` })),
            ];
      }
      const shown = cases.find((c) => c.passed !== true && str(c.execution)) ?? cases.find((c) => str(c.execution));
      if (id) {
        scene.fetch = [readVersion(args, id, undefined, 'workflow')];
        if (!execution && shown)
          scene.fetch.push({ tool: 'get_execution', arguments: { id: str(shown.execution), view: 'error', ...instanceOf(args) }, into: 'runs' });
        scene.actions.push({ label: 'Run the saved tests', tool: 'run_workflow_tests', arguments: { id, ...instanceOf(args) } });
      }
      break;
    }
    case 'try_nodes': {
      scene.workflow = triedWorkflow(args);
      scene.runs = runsOf(answer);
      scene.findings = findingsOf({ warnings: answer.warnings });
      const output = record(answer.output) ?? record(record(answer.stopped)?.output);
      const failed = record(answer.failed);
      scene.summary = failed
        ? `Failed at "${str(failed.node)}": ${str(failed.error) ?? ''}`
        : answer.stopped
          ? (str(record(answer.stopped)?.message) ?? 'Stopped')
          : `Ran: ${plural(Number(output?.count ?? 0), 'item')} out of "${str(output?.node) ?? ''}"`;
      const last = str(output?.node);
      if (last && scene.runs[last] && output) scene.runs[last] = { ...scene.runs[last]!, output: output.items ?? output.outputs };
      break;
    }
    case 'get_execution': {
      const raw = workflowIn(record(answer.workflowData));
      scene.workflow = raw;
      const summarised = record(record(answer.data)?.resultData);
      scene.runs = Array.isArray(answer.nodes)
        ? runsOf(answer)
        : summarised && Array.isArray(summarised.nodes)
          ? runsOf({ ...summarised, failed: answer.failed })
          : runsOfRunData(answer);
      const workflowId = str(answer.workflowId);
      titled(`#${str(answer.id) ?? id ?? ''}`);
      const failed = record(answer.failed);
      // n8n's raw execution names no failure of its own: the node whose run erred is where it stopped.
      const erred = failed ? undefined : Object.entries(scene.runs).find(([, run]) => run.status === 'error');
      const where = failed ? { node: str(failed.node), error: str(failed.error) } : erred ? { node: erred[0], error: erred[1].error } : undefined;
      scene.summary = `${str(answer.status) ?? ''}${where ? ` at "${where.node ?? ''}": ${where.error ?? ''}` : ''}`;
      scene.fetch = [];
      if (!raw && workflowId) scene.fetch.push({ tool: 'get_workflow', arguments: { id: workflowId, ...instanceOf(args) }, into: 'workflow' });
      if (Object.keys(scene.runs).length === 0 && id)
        scene.fetch.push({ tool: 'get_execution', arguments: { id, view: 'error', ...instanceOf(args) }, into: 'runs' });
      break;
    }
    case 'diff_workflow_versions': {
      const nodes = record(answer.nodes) ?? {};
      for (const n of list(nodes.added)) if (str(n)) scene.marks[str(n)!] = 'added';
      for (const n of list(nodes.removed)) if (str(n)) scene.marks[str(n)!] = 'removed';
      for (const n of list(nodes.changed)) if (str(record(n)?.node)) scene.marks[str(record(n)!.node)!] = 'changed';
      // The diff counts a node changed for its own fields, not for a connection to it: its marks say what its summary counts.
      scene.marksComplete = true;
      const connections = record(answer.connections) ?? {};
      titled(id);
      scene.summary =
        answer.same === true
          ? 'The two versions are the same'
          : `${versionName(answer.from)} → ${versionName(answer.to ?? 'current')}: ${list(nodes.added).length} added, ${list(nodes.removed).length} removed, ${list(nodes.changed).length} changed; ${list(connections.added).length + list(connections.removed).length} connections changed`;
      if (id) {
        scene.fetch = [readVersion(args, id, answer.from ?? args.from, 'before'), readVersion(args, id, answer.to ?? args.to, 'workflow')];
        if (typeof (answer.from ?? args.from) === 'number')
          scene.actions.push({
            label: `Restore version ${String(answer.from ?? args.from)}`,
            tool: 'restore_workflow_version',
            arguments: { id, version: answer.from ?? args.from, ...instanceOf(args) },
          });
      }
      break;
    }
    case 'restore_workflow_version': {
      const restored = str(answer.id) ?? id;
      titled(restored);
      scene.summary =
        str(answer.note) ?? `Version ${String(answer.version ?? args.version)} restored${str(answer.unchanged) ? `: ${str(answer.unchanged)}` : ''}`;
      if (restored) {
        scene.fetch = [readVersion(args, restored, undefined, 'workflow')];
        // A deleted workflow comes back as a new one (`from` names the old): there is no version of it to go back to.
        if (typeof answer.kept === 'number' && answer.from === undefined) {
          scene.fetch.push(readVersion(args, restored, answer.kept, 'before'));
          scene.actions.push({ ...undo(args, restored, answer.kept), label: 'Undo the restore' });
        }
      }
      break;
    }
    default:
      scene.workflow = workflowIn(answer) ?? readWorkflow(args.workflow);
  }
  return scene;
}

/** A version as the diff names it: its number in the history, or "current". */
const versionName = (version: unknown): string => (typeof version === 'number' || typeof version === 'string' ? String(version) : '?');

const undo = (args: Json, id: string, version: number): Action => ({
  label: 'Undo this change',
  tool: 'restore_workflow_version',
  arguments: { id, version, ...instanceOf(args) },
  hint: `Restores version ${version}, the one this change replaced`,
});

/** The scene with a fetched read laid in: the workflow, the version before, or the run. */
export function withFetched(scene: Scene, into: 'workflow' | 'before' | 'runs', result: ToolResult): Scene {
  const { json, text } = answerOf(result);
  if (result.isError || !json)
    return { ...scene, error: scene.error ?? `${into === 'runs' ? 'The run' : 'The workflow'} could not be read: ${text.replace(/^Error: /, '')}` };
  if (into === 'runs') {
    // The run's failing node, when the answer shown did not name it.
    const failed = record(json.failed);
    const said =
      failed && str(failed.node) && !scene.summary.includes(`"${str(failed.node)}"`) ? ` · failed at "${str(failed.node)}": ${str(failed.error) ?? ''}` : '';
    return { ...scene, runs: merged(runsOf(json), scene.runs), summary: `${scene.summary}${said}` };
  }
  const workflow = workflowIn(json);
  if (!workflow) return { ...scene, error: scene.error ?? 'The workflow is too large for one answer: it is not drawn.' };
  // A title that named the workflow by its id names it by its name once it is read.
  const title =
    into === 'workflow' && workflow.id && workflow.name && scene.title.endsWith(`: ${workflow.id}`)
      ? `${scene.title.slice(0, -workflow.id.length)}${workflow.name}`
      : scene.title;
  const next = { ...scene, title, [into]: workflow };
  // Marks the answer gave (a diff's, an edit's operations) stand; the rest come from comparing the two.
  if (next.before && next.workflow && !scene.marksComplete) next.marks = merged(compare(next.before, next.workflow), scene.marks);
  return next;
}
