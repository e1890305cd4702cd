/**
 * What an n8n execution says about a run, read as an agent needs it: the order the nodes ran in, per
 * node how it ended and how many items it put out, the node that failed with the items that reached it,
 * and where the items stopped when nothing failed. Pure: test_workflow and get_execution read the
 * execution from n8n and answer with this.
 */
import { deleteOwn, own, setOwn } from '../../lib/ownKeys';
import type { NodeCatalog } from '../../workflows/nodeCatalog';
import { portsOfNode } from '../../workflows/ports';
import { isPlainObject } from '../../workflows/values';

export interface Execution {
  id: string | number;
  status?: string;
  finished?: boolean;
  mode?: string;
  startedAt?: string;
  stoppedAt?: string | null;
  workflowId?: string;
  data?: {
    resultData?: { error?: N8nError; lastNodeExecuted?: string; runData?: Record<string, NodeRun[]> };
    /** What was left to run when the execution stopped: a failed node with the items it was given. */
    executionData?: { nodeExecutionStack?: { node?: { name?: unknown }; data?: { main?: (Item[] | null)[] } }[] };
  };
  /** The workflow as it ran (n8n stores it with the execution). */
  workflowData?: { nodes?: unknown[]; connections?: unknown };
  /** The version of the workflow that ran (n8n 2.x records it; 1.x does not). */
  workflowVersionId?: string | null;
  [key: string]: unknown;
}

interface NodeRun {
  executionIndex?: number;
  startTime?: number;
  executionTime?: number;
  executionStatus?: string;
  source?: ({ previousNode?: string; previousNodeOutput?: number } | null)[] | null;
  error?: N8nError;
  data?: Record<string, (Item[] | null)[]>;
}

interface N8nError {
  message?: string;
  description?: string | null;
  name?: string;
  node?: { name?: string };
  /** Where n8n knows it, the item the node failed on (`itemIndex`, 0-based, among the items it was given). */
  context?: { itemIndex?: unknown };
}

/** An item as n8n stores it: its JSON, and files as references (their data lives elsewhere). */
export interface Item {
  json?: unknown;
  binary?: Record<string, unknown>;
}

/** A sample in an answer is cut to about this many characters of JSON. */
const SAMPLE_CHARS = 1_000;
/** Items shown of the input of a failed node. */
const INPUT_SAMPLES = 2;

/** A value cut to about `max` characters of JSON, so an answer stays small; the cut says how long it was. */
export function clip(value: unknown, max = SAMPLE_CHARS): unknown {
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= max) return value;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}

/** Where an absolute path starts a host's own folders; a path under one, or through node_modules or .n8n, is the host's. */
const HOST_ROOT = /^(?:file:\/\/)?(?:[A-Za-z]:\\|\/(?:home|usr|opt|var|root|tmp|app|data|srv|Users|mnt|snap|private|etc)\/)/;
const HOST_FOLDER = /^(?:file:\/\/)?\/.*[\\/](?:node_modules|\.n8n)(?:[\\/]|$)/;

/**
 * An error message without the n8n instance's file system: absolute paths (of its install, its user
 * folder, its modules) become `<path>`. Stacks are never answered at all. Word by word (a word: what
 * lies between spaces, quotes and brackets), so the time is linear: a pattern over the whole text took
 * quadratic time on a message of many slashes (20,000 took a second).
 */
export function withoutPaths(text: string): string {
  return text.replace(/[^\s'"()[\]]+/g, (word) => (HOST_ROOT.test(word) || HOST_FOLDER.test(word) ? '<path>' : word));
}

/**
 * A stack trace's frames, from the first `at …` line on: what follows an error's message in a stack.
 * Spaces and tabs only before `at`: with any whitespace, text of many newlines took quadratic time.
 */
const FRAMES = /\n[ \t]+at \S[\s\S]*$/;

/**
 * Execution data without what it tells of the n8n host, changed in place (the caller's own copy, as
 * read from n8n). n8n keeps each error it stores with its stack (the install's paths, its modules),
 * in the run data, in the items a node that continues on failure puts out, in the items left to run:
 * every error's stack goes, the frames of a stack anywhere else are cut off, and the file paths in
 * error messages are replaced (withoutPaths). What the workflow itself made (items, parameters) stays
 * as it is. Every answer that carries execution data reads it through here: get_execution,
 * list_executions, and the runs of test_workflow, try_nodes and run_workflow_tests (ownExecution).
 */
export function withoutHostDetails<T>(data: T): T {
  // A stack, not recursion: items nest as deep as a workflow made them.
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    // An error as n8n stores one: its fields are n8n's words (a message, its name, n8n's messages).
    const error = !Array.isArray(value) && typeof (value as { stack?: unknown }).stack === 'string';
    for (const [key, field] of Object.entries(value)) {
      if (error && key === 'stack') deleteOwn(value, key);
      else if (error && key === 'messages' && Array.isArray(field))
        setOwn(
          value,
          key,
          field.map((m: unknown) => (typeof m === 'string' ? withoutPaths(m) : m)),
        );
      else if (typeof field !== 'string') pending.push(field);
      else {
        const cut = field.replace(FRAMES, '');
        const scrubbed = error || (key === 'error' && !Array.isArray(value)) ? withoutPaths(cut) : cut;
        if (scrubbed !== field) setOwn(value, key, scrubbed);
      }
    }
  }
  return data;
}

const runDataOf = (execution: Execution): Record<string, NodeRun[]> => execution.data?.resultData?.runData ?? {};

/** Items per output of a node's run (main outputs first, then any other connection type's). */
function outputsOf(run: NodeRun | undefined): Item[][] {
  return Object.values(run?.data ?? {}).flatMap((outputs) => (Array.isArray(outputs) ? outputs.map((items) => (Array.isArray(items) ? items : [])) : []));
}

/**
 * The items on each main output of a node's last run, as n8n stored them (an IF's true and false
 * branch, a Filter's kept and discarded items); undefined when the node did not run.
 */
export function mainOutputs(execution: Execution, node: string): Item[][] | undefined {
  const run = own(runDataOf(execution), node)?.at(-1);
  if (!run) return undefined;
  const main = run.data?.main;
  return Array.isArray(main) ? main.map((items) => (Array.isArray(items) ? items : [])) : [];
}

/** The names of a node's main outputs as n8n shows them, by node name; undefined where they cannot be told. */
export type OutputNames = (node: string) => readonly string[] | undefined;

/**
 * The names of the main outputs of a workflow's nodes, from their descriptions for their parameters
 * (an IF's "true" and "false", a Switch's rule outputs by their names); none for a node the catalog
 * does not know, or whose outputs an expression decides.
 */
export function outputNamesOf(nodes: readonly unknown[], catalog: NodeCatalog | null): OutputNames {
  const byName = new Map<string, readonly string[]>();
  for (const node of nodes) {
    if (!isPlainObject(node) || typeof node.name !== 'string' || typeof node.type !== 'string' || typeof node.typeVersion !== 'number') continue;
    const spec = catalog?.describe(node.type, node.typeVersion);
    const outputs = spec ? portsOfNode(spec, { ...node, type: node.type, typeVersion: node.typeVersion }).outputs : null;
    if (outputs)
      byName.set(
        node.name,
        outputs.filter((p) => p.type === 'main').map((p) => p.name),
      );
  }
  return (name) => byName.get(name);
}

/**
 * An output's label: its port's name; past the node's ports, "Discarded" (what n8n keeps of the items a
 * Filter or Remove Duplicates drops, on an output nothing connects to); its index where no names are known.
 */
export const outputLabel = (names: readonly string[] | undefined, output: number): string => names?.[output] ?? (names?.length ? 'Discarded' : String(output));

/** The nodes in the order they first ran (n8n's executionIndex, else their start time). */
export function runPath(execution: Execution): string[] {
  const first = (runs: NodeRun[]) => runs[0]?.executionIndex ?? runs[0]?.startTime ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(runDataOf(execution))
    .filter(([, runs]) => Array.isArray(runs) && runs.length > 0)
    .sort(([, a], [, b]) => first(a) - first(b))
    .map(([name]) => name);
}

/**
 * Samples as the answer shows them: the trigger's request headers once, on the trigger; an item further
 * on that still carries the same headers shows a note instead. Headers to hide (test_workflow's marker)
 * are left out everywhere.
 */
export interface SampleOptions {
  trigger?: string;
  hideHeaders?: readonly string[];
  /** Known: a node with several outputs is summarised with each output labelled. */
  outputNames?: OutputNames;
  /** Nodes the answer does not name (a tool's own helper nodes): a failed node's input is not said to come from one. */
  unnamed?: readonly string[];
}

function sampleOf(item: Item | undefined, node: string, execution: Execution, options: SampleOptions): unknown {
  const json = item?.json;
  if (!isPlainObject(json) || !isPlainObject(json.headers)) return clip(json);
  const headers = Object.fromEntries(Object.entries(json.headers).filter(([name]) => !options.hideHeaders?.includes(name.toLowerCase())));
  const triggerItem = options.trigger === undefined ? undefined : outputsOf(own(runDataOf(execution), options.trigger)?.[0])[0]?.[0]?.json;
  const same = node !== options.trigger && isPlainObject(triggerItem) && JSON.stringify(triggerItem.headers) === JSON.stringify(json.headers);
  return clip({ ...json, headers: same ? `(the request headers, as on "${options.trigger}")` : headers });
}

export interface NodeSummary {
  node: string;
  status: string;
  error?: string;
  runs: number;
  /** Items on each output of its last run (where its outputs are not labelled). */
  items?: number[];
  /** A node with several outputs whose names are known: the items on each, labelled (an IF's true and false). */
  outputs?: { name: string; count: number }[];
  sample?: unknown;
}

/** The items a summarised node put out, all its outputs together. */
export const itemsPutOut = (summary: Pick<NodeSummary, 'items' | 'outputs'>): number =>
  (summary.items ?? summary.outputs?.map((o) => o.count) ?? []).reduce((a, b) => a + b, 0);

/** Per node, in the order they ran: how its last run ended, its error, its runs, the items on each output and the first item. */
export function nodeSummaries(execution: Execution, options: SampleOptions = {}): NodeSummary[] {
  const runData = runDataOf(execution);
  return runPath(execution).map((node) => {
    const runs = own(runData, node) ?? [];
    const last = runs.at(-1);
    const outputs = outputsOf(last);
    const first = outputs.find((items) => items.length > 0)?.[0];
    const counts = outputs.map((items) => items.length);
    const names = options.outputNames?.(node);
    return {
      node,
      status: last?.error ? 'error' : (last?.executionStatus ?? 'success'),
      ...(last?.error ? { error: messageOf(last.error) } : {}),
      runs: runs.length,
      ...(names && counts.length > 1 ? { outputs: counts.map((count, output) => ({ name: outputLabel(names, output), count })) } : { items: counts }),
      ...(first ? { sample: sampleOf(first, node, execution, options) } : {}),
    };
  });
}

const messageOf = (error: N8nError): string =>
  withoutPaths([error.message, error.description].filter((t) => typeof t === 'string' && t !== '').join(': ') || 'failed');

export interface Failure {
  node: string;
  error: string;
  /** The item it failed on, where n8n says which: its index among the items it was given (0-based), and the item. */
  item?: { index: number; json: unknown };
  /** The items the node was given: where from, how many, the first few. */
  input?: { from?: string; items: number; samples: unknown[] };
}

/**
 * The node whose error stopped the run, its message (no stack, no paths), and the items it was given:
 * as n8n kept them to run it (the execution stack), else its upstream node's output.
 */
export function failureOf(execution: Execution, options: SampleOptions = {}): Failure | undefined {
  const runData = runDataOf(execution);
  const failed = [...runPath(execution)].reverse().find((name) => own(runData, name)?.some((run) => run.error));
  const error = failed === undefined ? execution.data?.resultData?.error : own(runData, failed)!.findLast((run) => run.error)!.error;
  const node = failed ?? error?.node?.name ?? execution.data?.resultData?.lastNodeExecuted;
  if (!error || node === undefined) return undefined;
  const run = own(runData, node)?.findLast((r) => r.error);
  const from = run?.source?.find((s) => typeof s?.previousNode === 'string')?.previousNode ?? undefined;
  const stacked = execution.data?.executionData?.nodeExecutionStack
    ?.find((entry) => entry.node?.name === node)
    ?.data?.main?.find((items) => Array.isArray(items));
  const upstream = from === undefined ? undefined : outputsOf(own(runData, from)?.at(-1))[run?.source?.[0]?.previousNodeOutput ?? 0];
  const items = stacked ?? upstream;
  const index = error.context?.itemIndex;
  const failedOn = typeof index === 'number' ? items?.[index] : undefined;
  return {
    node,
    error: messageOf(error),
    ...(failedOn ? { item: { index: index as number, json: sampleOf(failedOn, node, execution, options) } } : {}),
    ...(items
      ? {
          input: {
            ...(from === undefined || options.unnamed?.includes(from) ? {} : { from }),
            items: items.length,
            samples: items.slice(0, INPUT_SAMPLES).map((i) => sampleOf(i, node, execution, options)),
          },
        }
      : {}),
  };
}

/**
 * A node where the items went no further though nothing failed: it ran, and its outputs that lead on
 * got none. A branch not taken: it put items on another output (an IF's other branch, a Switch's other
 * rule, a Filter's discarded items); no items: it put out none at all, so the chain after it stopped.
 */
export interface Stop {
  node: string;
  kind: 'branch not taken' | 'no items';
  /** Its outputs, labelled: how many items each got and the nodes it leads to. */
  outputs: { name: string; count: number; to: string[] }[];
  /** The nodes after it that did not run because of it. */
  didNotRun: string[];
}

export interface ItemsStopped {
  /** Where the items stopped, in the order the nodes ran. */
  stops: Stop[];
  /** Every node the trigger leads to over main connections that never ran. */
  didNotRun: string[];
}

/**
 * Where the items went when nothing failed: the nodes the trigger leads to that never ran (typically a
 * Respond to Webhook no item reached, which n8n does not count as a failure: the webhook answers 200
 * with an empty body), and why — each node that ran and whose outputs leading to them got no items,
 * told apart: a branch not taken, or a node that put out no items at all.
 */
export function whereItemsStopped(execution: Execution, trigger: string, outputNames: OutputNames = () => undefined): ItemsStopped {
  const runData = runDataOf(execution);
  const connections = isPlainObject(execution.workflowData?.connections) ? execution.workflowData.connections : {};
  const didNotRun = reachableOverMain(execution.workflowData, trigger).filter((node) => own(runData, node) === undefined);
  const notRun = new Set(didNotRun);
  const explained = new Set<string>();
  const stops: Stop[] = [];
  for (const node of runPath(execution)) {
    const counts = (mainOutputs(execution, node) ?? []).map((items) => items.length);
    const names = outputNames(node);
    const outputs = Array.from({ length: Math.max(counts.length, mainOutputCount(connections, node)) }, (_, output) => ({
      name: outputLabel(names, output),
      count: counts[output] ?? 0,
      to: mainTargets(connections, node, output),
    }));
    const starved = outputs.flatMap((o) => (o.count === 0 ? o.to.filter((target) => notRun.has(target) && !explained.has(target)) : []));
    if (starved.length === 0) continue;
    const after = walkMain(starved, connections, (name) => notRun.has(name) && !explained.has(name));
    after.forEach((n) => explained.add(n));
    stops.push({ node, kind: outputs.some((o) => o.count > 0) ? 'branch not taken' : 'no items', outputs, didNotRun: after });
  }
  return { stops, didNotRun };
}

/** How many main outputs of `source` its connections list. */
function mainOutputCount(connections: Record<string, unknown>, source: string): number {
  const byType = own(connections, source);
  const main = isPlainObject(byType) ? own(byType, 'main') : undefined;
  return Array.isArray(main) ? main.length : 0;
}

/** `from` and the nodes they lead to over main connections, through nodes `admit` lets in, breadth first. */
function walkMain(from: readonly string[], connections: Record<string, unknown>, admit: (name: string) => boolean): string[] {
  const seen = new Set(from);
  const queue = [...seen];
  for (let i = 0; i < queue.length; i++) {
    for (let output = 0; output < mainOutputCount(connections, queue[i]!); output++) {
      for (const name of mainTargets(connections, queue[i]!, output)) {
        if (seen.has(name) || !admit(name)) continue;
        seen.add(name);
        queue.push(name);
      }
    }
  }
  return queue;
}

/** A stop in words: `"Split" put out no items, so "Respond" did not run`; a branch with where its items went instead. */
export function stopText(stop: Stop): string {
  const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(', ');
  const then = `so ${quoted(stop.didNotRun)} did not run`;
  if (stop.kind === 'no items') return `"${stop.node}" put out no items, ${then}`;
  const empty = stop.outputs.filter((o) => o.count === 0 && o.to.some((t) => stop.didNotRun.includes(t)));
  const went = stop.outputs.filter((o) => o.count > 0).map((o) => `${o.count} on "${o.name}"${o.to.length ? '' : ', which leads nowhere'}`);
  return `${empty.map((o) => `output "${o.name}"`).join(' and ')} of "${stop.node}" got no items (${went.join('; ')}), ${then}`;
}

/** The names of the nodes one main output of `source` is connected to. */
function mainTargets(connections: Record<string, unknown>, source: string, output: number): string[] {
  const byType = own(connections, source);
  const main = isPlainObject(byType) ? own(byType, 'main') : undefined;
  const targets = Array.isArray(main) ? main[output] : undefined;
  return (Array.isArray(targets) ? targets : []).flatMap((t) => (isPlainObject(t) && typeof t.node === 'string' ? [t.node] : []));
}

/** The enabled nodes `from` leads to over main connections, in breadth-first order. */
function reachableOverMain(workflow: Execution['workflowData'], from: string): string[] {
  const connections = isPlainObject(workflow?.connections) ? workflow.connections : {};
  const disabled = new Set((workflow?.nodes ?? []).filter((n) => isPlainObject(n) && n.disabled === true).map((n) => (n as { name: unknown }).name));
  return walkMain([from], connections, (name) => !disabled.has(name)).slice(1);
}
