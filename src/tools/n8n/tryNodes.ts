/**
 * try_nodes: node configurations run on sample items in the connected n8n, in a throwaway workflow — a
 * Webhook, a Split Out that turns the posted items into n8n items, then the nodes — created, activated,
 * called (marked as test_workflow marks its run), read, and deleted with its executions whatever
 * happens. The answer is what n8n made of the items: the last node's output or the error.
 */
import { z } from 'zod';
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { workflowBody } from '../../n8n/workflowBody';
import { own } from '../../lib/ownKeys';
import type { Finding, ValidationResult } from '../../workflows/findings';
import type { NodeCatalog } from '../../workflows/nodeCatalog';
import { portsOfNode, type NodePorts } from '../../workflows/ports';
import { isPlainObject } from '../../workflows/values';
import { refusal, ToolError, TransientError } from '../tool';
import { NamedObject } from '../validation/schemas';
import {
  clip,
  failureOf,
  mainOutputs,
  nodeSummaries,
  outputLabel,
  outputNamesOf,
  stopText,
  whereItemsStopped,
  type Execution,
  type Item,
  type OutputNames,
} from './executionReport';
import { n8nTool, type Page, type N8nToolContext } from './n8nTool';
import { callTrigger, executionIdsOf, waitForOwnExecution } from './ownExecution';
import { messageOf, runWithCleanUp } from './runWithCleanUp';
import { triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';
import { judged, NOT_VALIDATED } from './workflows';

/** The throwaway workflow's own nodes: the Webhook called with the items, and the node that makes them n8n items. */
export const REQUEST_NODE = 'Sample items (request)';
const ITEMS_NODE = 'Sample items';
const OWN_NODES = [REQUEST_NODE, ITEMS_NODE];
/** The throwaway workflow's name: what finds it when n8n created it but its answer was lost. */
export const THROWAWAY_PREFIX = 'try_nodes throwaway ';
/**
 * What the run leaves of the call's time for the clean-up (deactivate, list and delete the executions,
 * delete the workflow: four or more n8n requests, each tried twice).
 */
const CLEAN_UP_MS = 15_000;
/** How long after n8n's own time limit for the run (waitSeconds) its execution is looked for. */
const STORE_GRACE_MS = 5_000;
/** Characters of JSON of output items an answer holds; past them it says how many it shows. */
export const OUTPUT_CHARS = 50_000;
/** Nodes and items a call takes. */
const MAX_NODES = 10;
const MAX_ITEMS = 1_000;

const TryNode = z
  .looseObject({
    name: z.string().min(1).describe('A name of your choice; expressions in later nodes refer to it ($("Name"))'),
    type: z.string().min(1).describe('The node type, e.g. n8n-nodes-base.set'),
    typeVersion: z.number().describe('The node version, e.g. 3.4 (get_node_details lists them)'),
    parameters: NamedObject.default({}).describe("The node's parameters, as in workflow JSON"),
    credentials: NamedObject.optional().describe('e.g. {"slackApi": {"id": "…", "name": "…"}}: one of your n8n credentials'),
  })
  .describe('A node as in a workflow (onError, alwaysOutputData, executeOnce… are kept too)');

type TryNode = z.output<typeof TryNode>;

export const tryNodes = n8nTool({
  name: 'try_nodes',
  title: 'Try nodes on sample items',
  description:
    'Run one node, or a chain of up to 10 (each first output into the next node), on sample input items in the ' +
    "connected n8n, without touching any saved workflow, and answer what n8n made of them: the last node's output " +
    "items (per output for an IF, Switch or Filter, labelled), or the node that failed with n8n's error, the item it failed on " +
    '(with its index) and the items it was given; per node its items on each output. Only your nodes are named. Use it to check a parameter, an expression or a Code node before you ' +
    'put it in a workflow: dotted field names, an item without the field a node reads. It runs in a throwaway ' +
    'workflow (a Webhook, then your nodes) that is deleted with its execution whatever happens; the answer says if ' +
    'anything was left. Validated first as create_workflow does: errors refuse it with the findings. The nodes really ' +
    'run: an HTTP Request or Send Email node does what it does. A trigger cannot be tried, nor an AI sub-node without ' +
    'its root node (give both, with connections), nor a node without the credentials it needs.',
  input: z.object({
    nodes: z.array(TryNode).min(1).max(MAX_NODES).describe('The nodes, in the order the items go through them'),
    connections: NamedObject.optional().describe(
      'Only for what is not a chain (an AI sub-node to its root, a branch): the connections between these nodes as in a ' +
        "workflow, replacing the chain; the items still go into the first node, and the output is the last main node's",
    ),
    items: z
      .array(NamedObject)
      .min(1)
      .max(MAX_ITEMS)
      .default([{}])
      .describe('The input items, each the JSON of one item (what $json is in the first node); default one empty item'),
    waitSeconds: z.number().int().min(1).max(100).default(30).describe("How long the run may take: n8n stops it after this (the workflow's execution timeout)"),
  }),
  // The nodes do what they do (an HTTP Request sends), again each time.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  view: true,
  timeoutMs: 120_000,
  runsLong: () => true,
  run: ({ nodes, connections, items, waitSeconds }, n8n, ctx) => tryThem(n8n, ctx, nodes, connections, items, waitSeconds),
});

/** The run of try_nodes: validated, then made, run, read and cleaned up in n8n. */
async function tryThem(n8n: N8nClient, ctx: N8nToolContext, nodes: TryNode[], connections: unknown, items: Record<string, unknown>[], waitSeconds: number) {
  const runId = crypto.randomUUID();
  const workflow = throwawayWorkflow(runId, nodes, connections, waitSeconds);
  const judgement = await judged(workflow, ctx.env, n8n);
  const validation = judgement ? ownFindings(judgement.result) : undefined;
  const cannot = judgement ? cannotRun(nodes, connections, judgement.catalog, validation!) : [];
  if (validation && (!validation.valid || cannot.length)) {
    // A node that cannot be tried at all is to be left out or attached: its findings, and those of connections to it, are moot.
    const moot = cannot.filter((c) => !c.credentials).map((c) => c.node);
    const errors = validation.errors.filter(
      (f) => !moot.includes(f.node!) && !(f.path?.startsWith('connections.') && moot.some((n) => f.message.includes(`"${n}"`))),
    );
    return refusal({
      ran: false,
      reason: cannot.length
        ? `n8n cannot run these nodes as given: each entry of cannotRun says why and what to do${errors.length ? ', and errors lists what else to fix' : ''}. Nothing was sent to n8n.`
        : 'The nodes have errors: fix them (validate_node and get_node_details say what is right) and try again. Nothing was sent to n8n.',
      ...(cannot.length ? { cannotRun: cannot.map(({ node, why }) => ({ node, why })) } : {}),
      ...(errors.length ? { errors } : {}),
      // Missing credentials are said in cannotRun.
      ...withWarnings(validation.warnings.filter((f) => f.code !== 'missing_credentials')),
    });
  }
  const trigger = workflow.nodes[0] as TriggerNode;
  const url = triggerUrl(ctx.connection.apiBase.replace(/\/api\/v1$/, ''), trigger);
  const outputNode = lastMainNode(nodes, judgement?.catalog);
  const made: Made = { name: workflow.name, createSent: false, activateSent: false, executions: new Set() };
  await ctx.beginSideEffect();
  const { ran, cleaned } = await runWithCleanUp(
    ctx,
    CLEAN_UP_MS,
    async ({ signal, stopBy }) => {
      const run = n8n.withSignal(signal);
      made.createSent = true;
      made.workflowId = (await run.post<Workflow>('/workflows', { body: workflowBody(workflow) })).id;
      // Marked before it is sent: an activation whose answer was lost is put back too.
      made.activateSent = true;
      await run.post(`${workflowPath(made.workflowId)}/activate`).catch((error: unknown) => {
        throw notActivated(error);
      });
      const payload = { items };
      const response = await callTrigger(run, { workflowId: made.workflowId, url, node: trigger, payload, runId }, signal);
      if (response.status === 404)
        throw new ToolError(`n8n did not run the throwaway workflow: its webhook answered 404 (${JSON.stringify(clip(response.body))})`);
      const until = Math.min(stopBy, Date.now() + waitSeconds * 1000 + STORE_GRACE_MS);
      const found = await waitForOwnExecution({ n8n: run, workflowId: made.workflowId, after: 0, until, signal, trigger, runId, payload });
      if (!found) {
        throw new ToolError(
          `n8n stored no finished execution of the run in time (its webhook answered ${response.status}${signal.aborted ? '; the call was cancelled or out of time' : ''}).`,
        );
      }
      made.executions.add(String(found.execution.id));
      return report(found.execution, nodes, outputNode, judgement?.catalog, waitSeconds);
    },
    (signal) => cleanUp(n8n.withSignal(signal), made, ctx),
  );
  if ('error' in ran) {
    const { error } = ran;
    // A fault is answered as one; what n8n or this tool said goes with what became of the throwaway workflow.
    if (!(error instanceof ToolError) && !(error instanceof TransientError)) throw error;
    throw new ToolError(`${messageOf(error).replace(/\.$/, '')}. ${cleaned.said}`);
  }
  return {
    ...ran.value,
    ...(validation ? withWarnings(validation.warnings) : NOT_VALIDATED),
    cleanUp: cleaned.answer,
  };
}

/** The throwaway workflow: Webhook (POST, answers when the run is done) → Split Out of `body.items` → the nodes. */
function throwawayWorkflow(runId: string, nodes: TryNode[], connections: unknown, waitSeconds: number) {
  const taken = nodes.find((n) => OWN_NODES.includes(n.name))?.name ?? connectedOwnNode(connections);
  if (taken !== undefined) {
    throw new ToolError(`"${taken}" is the name of a node try_nodes adds itself (${OWN_NODES.map((n) => `"${n}"`).join(', ')}): give your node another name.`);
  }
  const main = (target: string) => ({ main: [[{ node: target, type: 'main', index: 0 }]] });
  const chain = Object.fromEntries(nodes.slice(0, -1).map((node, i) => [node.name, main(nodes[i + 1]!.name)]));
  return {
    name: `${THROWAWAY_PREFIX}${runId}`,
    nodes: [
      {
        name: REQUEST_NODE,
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        webhookId: runId,
        position: [0, 0],
        parameters: { path: `try-nodes-${runId}`, httpMethod: 'POST', responseMode: 'lastNode', responseData: 'noData', options: {} },
      },
      { name: ITEMS_NODE, type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, 0], parameters: { fieldToSplitOut: 'body.items', options: {} } },
      ...nodes.map((node, i) => ({ position: [400 + 200 * i, 0], ...node })),
    ],
    connections: { [REQUEST_NODE]: main(ITEMS_NODE), [ITEMS_NODE]: main(nodes[0]!.name), ...(isPlainObject(connections) ? connections : chain) },
    // Every run kept (whatever the instance's defaults), and stopped by n8n itself after waitSeconds.
    settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', executionTimeout: waitSeconds },
  };
}

/** A connection the caller gave from or to one of the throwaway workflow's own nodes, by name. */
function connectedOwnNode(connections: unknown): string | undefined {
  if (!isPlainObject(connections)) return undefined;
  const source = Object.keys(connections).find((name) => OWN_NODES.includes(name));
  if (source !== undefined) return source;
  const targets = JSON.stringify(connections);
  return OWN_NODES.find((name) => targets.includes(`"node":${JSON.stringify(name)}`));
}

const withWarnings = (warnings: Finding[]) => (warnings.length ? { warnings } : {});

/** The findings about the caller's nodes (the throwaway workflow's own two are this tool's business). */
function ownFindings(result: ValidationResult): ValidationResult {
  const theirs = (f: Finding) => f.node === null || !OWN_NODES.includes(f.node);
  const errors = result.errors.filter(theirs);
  return { ...result, valid: errors.length === 0, errors, warnings: result.warnings.filter(theirs) };
}

const portsOf = (node: TryNode, catalog: NodeCatalog | undefined): NodePorts | undefined => {
  const spec = catalog?.describe(node.type, node.typeVersion);
  return spec ? portsOfNode(spec, node) : undefined;
};

/** An AI sub-node: it has outputs and none of them carries items (a model, a memory, a tool). */
const isSubNode = (ports: NodePorts | undefined) => !!ports?.outputs?.length && ports.outputs.every((p) => p.type !== 'main');

interface CannotRun {
  node: string;
  why: string;
  /** Only its credentials are missing: the node itself stays, and so do its findings. */
  credentials?: true;
}

const RESPOND = 'n8n-nodes-base.respondToWebhook';

/**
 * Why n8n cannot run a node here, with what to do, for each node that cannot be tried: a trigger, a
 * Respond to Webhook, an AI sub-node no connection attaches to its root, a node that needs credentials
 * it lacks.
 */
function cannotRun(nodes: TryNode[], connections: unknown, catalog: NodeCatalog, validation: ValidationResult): CannotRun[] {
  const cannot: CannotRun[] = [];
  for (const node of nodes) {
    if (node.disabled === true) continue;
    const spec = catalog.describe(node.type, node.typeVersion);
    if (!spec) continue;
    const ports = portsOfNode(spec, node);
    const name = `"${node.name}" (${spec.display_name})`;
    if (spec.node_type === 'TRIGGER_NODE' || (ports.inputs?.length === 0 && ports.outputs?.some((p) => p.type === 'main'))) {
      cannot.push({
        node: node.name,
        why:
          `${name} is a trigger: n8n starts a workflow with it and does not give it items, so it cannot be tried on items. ` +
          'Leave it out and try the nodes after it, with items shaped like what the trigger puts out; test_workflow runs a saved workflow through its Webhook, Form or Chat trigger.',
      });
    } else if (node.type === RESPOND) {
      // The throwaway workflow's Webhook answers by itself: n8n fails a Respond node after it ("Unused Respond to Webhook node").
      cannot.push({
        node: node.name,
        why:
          `${name} answers the call of a Webhook that waits for it, and the trigger that feeds tried nodes does not wait: n8n refuses it there. ` +
          'Try the nodes before it; to see what it answers, save the workflow (Webhook "responseMode": "responseNode") and call test_workflow, whose verdict holds the answer.',
      });
    } else if (isSubNode(ports) && !attached(node.name, connections)) {
      const kind = ports.outputs![0]!.type;
      cannot.push({
        node: node.name,
        why:
          `${name} is an AI sub-node: it gives "${kind}" to a root node (an AI Agent, a chain) and n8n runs it only from there. ` +
          `Add the root node to nodes and attach this one with connections: {"${node.name}": {"${kind}": [[{"node": "<root node>", "type": "${kind}", "index": 0}]]}} ` +
          '(connections then replace the chain: connect the main path too).',
      });
    }
  }
  for (const finding of validation.warnings.filter((f) => f.code === 'missing_credentials')) {
    cannot.push({
      node: finding.node!,
      why: `${finding.message} n8n does not run the node without them: create_credential makes one, and its id and name go there.`,
      credentials: true,
    });
  }
  return cannot;
}

/** Whether `connections` lead from a node to another over a connection of its own kind (a sub-node to its root). */
function attached(name: string, connections: unknown): boolean {
  const from = isPlainObject(connections) ? own(connections, name) : undefined;
  return isPlainObject(from) && Object.values(from).some((outputs) => Array.isArray(outputs) && outputs.some((o) => Array.isArray(o) && o.length > 0));
}

/** The node whose output the answer gives: the last one given that puts out items (not an AI sub-node). */
function lastMainNode(nodes: TryNode[], catalog: NodeCatalog | undefined): TryNode {
  return nodes.findLast((node) => !isSubNode(portsOf(node, catalog))) ?? nodes.at(-1)!;
}

/** n8n's refusal to activate the throwaway workflow, said for what was tried. */
function notActivated(error: unknown): unknown {
  if (!(error instanceof N8nApiError)) return error;
  const unknownType = /Unrecognized node type: (\S+)/.exec(error.message)?.[1];
  if (unknownType) {
    return new ToolError(
      `This n8n does not have the node type "${unknownType}" (n8n: "Unrecognized node type"): a community node must be installed in n8n first, ` +
        'a node of a newer n8n needs that n8n; search_nodes finds the nodes there are. Nothing was run',
    );
  }
  return new ToolError(`n8n would not activate the throwaway workflow, so nothing was run: ${error.message}`);
}

/** What a call keeps of what it made in n8n, for the clean-up. */
interface Made {
  name: string;
  createSent: boolean;
  workflowId?: string;
  activateSent: boolean;
  executions: Set<string>;
}

/**
 * The answer: the output node's items per output, or the failure as n8n stored it (the failed node, its
 * error, the items it was given), or what became of a run n8n stopped; and per node of the caller's its
 * status and items on each output.
 */
function report(execution: Execution, nodes: TryNode[], outputNode: TryNode, catalog: NodeCatalog | undefined, waitSeconds: number) {
  const names = new Set(nodes.map((n) => n.name));
  // Only the caller's nodes are named: never this tool's own, which the caller did not write.
  const options = { outputNames: outputNamesOf(nodes, catalog ?? null), unnamed: OWN_NODES };
  const perNode = nodeSummaries(execution, options).filter((summary) => names.has(summary.node));
  // Checked first: n8n records the stop as the run's error, which is no node's failure.
  if (execution.status === 'canceled') return { stopped: stoppedRun(execution, nodes, perNode, options.outputNames, waitSeconds), nodes: perNode };
  const failed = failureOf(execution, options);
  if (failed) return { failed, nodes: perNode };
  return { output: outputOf(execution, outputNode, options.outputNames), nodes: perNode };
}

/**
 * What became of a run n8n stopped, as n8n stored it: which of the caller's nodes finished (the last
 * one's output), which did not, and what n8n did. n8n stops a run at its time limit with a timer in its
 * own process, which cancels a node that waits (an HTTP request, a Code node in a task runner); a node
 * that computes without pause in that process (an expression, a Code node where n8n has no task
 * runners) holds the timer, finishes, and the run stops only after it (docs/n8n-tools.md).
 */
function stoppedRun(execution: Execution, nodes: TryNode[], perNode: ReturnType<typeof nodeSummaries>, outputNames: OutputNames, waitSeconds: number) {
  const ran = new Set(perNode.map((summary) => summary.node));
  const notRun = nodes.filter((n) => !ran.has(n.name) && n.disabled !== true).map((n) => n.name);
  const started = Date.parse(execution.startedAt ?? '');
  const seconds = (Date.parse(execution.stoppedAt ?? '') - started) / 1000;
  const after = Number.isFinite(seconds) ? ` ${seconds.toFixed(1)} s after the start` : '';
  const limit = `its time limit (waitSeconds: ${waitSeconds} s)`;
  const atLimit = execution.data?.resultData?.error?.name === 'TimeoutExecutionCancelledError' || seconds >= waitSeconds;
  // A node of the caller's that ended past the time limit: n8n could stop the run only once it was done.
  const late = perNode.findLast((summary) => {
    const run = own(execution.data?.resultData?.runData ?? {}, summary.node)?.at(-1);
    return run?.startTime !== undefined && run.executionTime !== undefined && run.startTime + run.executionTime > started + waitSeconds * 1000;
  })?.node;
  // Stopped at its time limit while a node of the caller's ran: the first that did not finish.
  const running = late === undefined && atLimit ? notRun[0] : undefined;
  const didNotRun = running === undefined ? notRun : notRun.slice(1);
  const notRunSaid = didNotRun.length ? ` ${didNotRun.map((n) => `"${n}"`).join(', ')} did not run.` : '';
  let message: string;
  if (late !== undefined) {
    message =
      `The run passed ${limit} while "${late}" ran, and n8n stopped it only once "${late}" had finished,${after}. ` +
      "A node that computes without pause in n8n's own process (an expression, a Code node where n8n runs Code without task runners) holds n8n itself: " +
      `n8n can neither stop it nor answer anything else until it is done.${notRunSaid} Make "${late}" do less, or give the run more time.`;
  } else if (running !== undefined) {
    message = `n8n stopped the run at ${limit},${after}, while "${running}" was running: it did not finish.${notRunSaid} Give the run more time, or fewer items.`;
  } else {
    message = `n8n stopped the run${after}, ${atLimit ? `at ${limit}` : `before ${limit}: it was cancelled in n8n`}.${notRunSaid}`;
  }
  const lastFinished = nodes.findLast((n) => ran.has(n.name));
  return {
    message,
    ...(Number.isFinite(seconds) ? { seconds: Number(seconds.toFixed(1)) } : {}),
    finished: nodes.filter((n) => ran.has(n.name)).map((n) => n.name),
    ...(running === undefined ? {} : { running }),
    didNotRun,
    ...(lastFinished ? { output: outputOf(execution, lastFinished, outputNames) } : {}),
  };
}

/**
 * The output node's items, all of them up to OUTPUT_CHARS of JSON (then the answer says how many it
 * shows): the items' JSON, and where items carry files, their names and types. A node with several
 * outputs gets them one by one, labelled as n8n names them (outputLabel: a Filter's discarded items
 * too); a node no item reached says why, as far as the caller's nodes tell it.
 */
function outputOf(execution: Execution, node: TryNode, outputNames: OutputNames) {
  const outputs = mainOutputs(execution, node.name);
  if (outputs === undefined) {
    // Where the items stopped, from the first of the caller's nodes: this tool's own are never named.
    const stops = whereItemsStopped(execution, ITEMS_NODE, outputNames).stops.filter((stop) => stop.didNotRun.includes(node.name));
    const why = stops.length ? `: ${stops.map(stopText).join('; ')}` : ', so it did not run';
    return { node: node.name, count: 0, items: [], note: `No item reached "${node.name}"${why}.` };
  }
  let room = OUTPUT_CHARS;
  const shown = outputs.map((items) => {
    const kept: unknown[] = [];
    for (const item of items) {
      const size = JSON.stringify(item.json ?? {}).length;
      if (size > room) {
        if (kept.length === 0 && room === OUTPUT_CHARS) kept.push(clip(item.json, OUTPUT_CHARS));
        room = 0;
        break;
      }
      kept.push(item.json ?? {});
      room -= size;
    }
    return { count: items.length, items: kept, ...files(items), ...(kept.length < items.length ? { shown: kept.length } : {}) };
  });
  const cut = shown.some((o) => o.shown !== undefined)
    ? { cut: `The answer holds ${OUTPUT_CHARS.toLocaleString('en-US')} characters of items: each output's "shown" says how many of its items it lists.` }
    : {};
  if (shown.length <= 1) return { node: node.name, ...(shown[0] ?? { count: 0, items: [] }), ...cut };
  const names = outputNames(node.name);
  return {
    node: node.name,
    count: shown.reduce((sum, o) => sum + o.count, 0),
    outputs: shown.map((o, output) => ({ output, name: outputLabel(names, output), ...o })),
    ...cut,
  };
}

/** The files items carry, by item: each one's name, type and size (the data stays in n8n). */
function files(items: Item[]) {
  const listed = items.flatMap((item, i) => {
    if (!isPlainObject(item.binary)) return [];
    const meta = Object.fromEntries(
      Object.entries(item.binary).map(([key, file]) => {
        const f = isPlainObject(file) ? file : {};
        return [key, { fileName: f.fileName, mimeType: f.mimeType, fileSize: f.fileSize }];
      }),
    );
    return [{ item: i, files: meta }];
  });
  return listed.length ? { binary: listed } : {};
}

interface Cleaned {
  /** What the answer says of the throwaway workflow. */
  answer: Record<string, unknown>;
  /** The same in a sentence, for an error answer. */
  said: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One clean-up request, tried twice; one n8n answers 404 to is done already. */
async function twice(request: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await request();
      return;
    } catch (error) {
      if (error instanceof N8nApiError && error.status === 404) return;
      if (attempt === 2) throw error;
      await pause(250);
    }
  }
}

/**
 * Leaves nothing behind in n8n (`n8n` carries the clean-up's own signal): the throwaway workflow is
 * deactivated, its executions deleted, then the workflow (n8n deletes a workflow's executions with it;
 * test/e2e-n8n/tryNodes.test.ts checks that). A workflow whose creation was sent but whose id never came
 * back is found by its name. What could not be deleted is logged (ids, never the key) and said.
 */
async function cleanUp(n8n: N8nClient, made: Made, ctx: N8nToolContext): Promise<Cleaned> {
  if (!made.createSent) return { answer: { created: false }, said: 'Nothing was created in n8n.' };
  let ids = made.workflowId === undefined ? [] : [made.workflowId];
  if (made.workflowId === undefined) {
    try {
      // n8n matches part of a name: only the workflow of exactly this name is the call's.
      const named = (await n8n.get<Page<Workflow>>('/workflows', { query: { name: made.name } })).data;
      ids = named.filter((w) => w.name === made.name).map((w) => w.id);
    } catch (error) {
      return failed(ctx, { workflowName: made.name }, error, `a workflow named "${made.name}" may be left in n8n: delete it with delete_workflow`);
    }
    if (ids.length === 0) return { answer: { created: false }, said: 'n8n did not create the throwaway workflow: nothing is left.' };
  }
  const deleted: string[] = [];
  for (const workflowId of ids) {
    let active = made.activateSent;
    const problems: string[] = [];
    if (made.activateSent) {
      await twice(() => n8n.post(`${workflowPath(workflowId)}/deactivate`)).then(
        () => (active = false),
        (error: unknown) => problems.push(`deactivate: ${messageOf(error)}`),
      );
    }
    const executions = new Set(made.executions);
    await executionIdsOf(n8n, workflowId).then(
      (listed) => listed.forEach((id) => executions.add(id)),
      (error: unknown) => problems.push(`list its executions: ${messageOf(error)}`),
    );
    const undeleted: string[] = [];
    for (const id of executions) {
      await twice(() => n8n.delete(`/executions/${id}`)).catch((error: unknown) => {
        undeleted.push(id);
        problems.push(`delete execution ${id}: ${messageOf(error)}`);
      });
    }
    const gone = await twice(() => n8n.delete(workflowPath(workflowId))).then(
      () => true,
      (error: unknown) => (problems.push(`delete the workflow: ${messageOf(error)}`), false),
    );
    // n8n deletes a workflow's executions with it: once the workflow is gone, nothing of the run is left.
    if (gone) {
      deleted.push(workflowId);
      continue;
    }
    const left = { workflow: workflowId, active, executions: undeleted };
    return failed(
      ctx,
      { left },
      problems.join('; '),
      `the throwaway workflow ${workflowId} (${active ? 'still active' : 'inactive'}) is left in n8n${left.executions.length ? ` with execution${left.executions.length > 1 ? 's' : ''} ${left.executions.join(', ')}` : ''}: delete it with delete_workflow`,
    );
  }
  const executions = [...made.executions];
  return {
    answer: { deleted: true, workflow: deleted.join(', '), ...(executions.length ? { executions } : {}) },
    said: `The throwaway workflow ${deleted.join(', ')} was deleted with its executions: nothing is left in n8n.`,
  };
}

/** A clean-up that left something: logged without the key, sent to the client's log, said in the answer. */
async function failed(ctx: N8nToolContext, what: Record<string, unknown>, error: unknown, left: string): Promise<Cleaned> {
  const warning = `Cleaning up after the run failed (${typeof error === 'string' ? error : messageOf(error)}): ${left}.`;
  console.error(JSON.stringify({ level: 'error', tool: 'try_nodes', ...what, message: 'could not delete the throwaway workflow', error: warning }));
  await ctx.log('error', warning).catch(() => {});
  return { answer: { deleted: false, ...what, warning }, said: warning };
}
