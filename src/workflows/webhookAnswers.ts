/**
 * Who answers a webhook call. A Webhook (or Form Trigger) set to answer "Using Respond to Webhook
 * Node" waits for one downstream; a Respond to Webhook answers the webhook upstream of it. n8n
 * refuses either half missing at run time (Webhook/utils.js checkResponseModeConfiguration,
 * Form/utils/utils.js, RespondToWebhook.node.js, n8n-nodes-base 2.41): those are errors here. A path
 * on which the items can end before the Respond node is a warning: the caller then gets an empty 200.
 */
import { own } from '../lib/ownKeys';
import type { Connection, Endpoint } from './connections';
import { quote, type Findings } from './findings';
import { adjacency, reach } from './graph';
import type { ObservedBehaviour } from '../catalog/nodeSpec';
import type { ShapedNode } from './outputShapes';

const WEBHOOK = 'n8n-nodes-base.webhook';
const FORM_TRIGGER = 'n8n-nodes-base.formTrigger';
const WAIT = 'n8n-nodes-base.wait';
const RESPOND = 'n8n-nodes-base.respondToWebhook';
/** What a Respond to Webhook (v1.1+) needs upstream, or n8n fails it with "No Webhook node found in the workflow". */
const ANSWERED = new Set([WEBHOOK, FORM_TRIGGER, '@n8n/n8n-nodes-langchain.chatTrigger', WAIT]);

type Graph = Map<string, string[]>;

const value = (shaped: ShapedNode | undefined, name: string): unknown => (shaped ? own(shaped.values, name) : undefined);

/** The workflow's main connections between enabled nodes, both ways, and what the rules ask of them. */
class Flow {
  readonly children: Graph;
  readonly parents: Graph;
  readonly from: Map<string, Connection[]>;
  /** Respond nodes and every node with a path to one: computed once, whatever the number of webhooks. */
  readonly toRespond: Set<string>;

  constructor(
    connections: Connection[],
    readonly byName: Map<string, Endpoint>,
  ) {
    const active = (name: string) => byName.has(name) && !byName.get(name)!.node.disabled;
    const main = connections.filter((c) => c.outputType === 'main' && active(c.source) && active(c.target));
    this.children = adjacency(main.map((c) => [c.source, c.target]));
    this.parents = adjacency(main.map((c) => [c.target, c.source]));
    this.from = Map.groupBy(main, (c) => c.source);
    const responders = [...byName.keys()].filter((n) => active(n) && this.typeOf(n) === RESPOND);
    this.toRespond = new Set([...responders, ...reach(responders, this.parents)]);
  }

  typeOf(name: string): string {
    return this.byName.get(name)!.node.type;
  }
}

/** `starters`: the nodes that start runs (a Respond node no run reaches never runs: graph.ts warns about it). */
export function checkWebhookAnswers(
  connections: Connection[],
  byName: Map<string, Endpoint>,
  shaped: Map<string, ShapedNode>,
  starters: Set<string>,
  out: Findings,
): void {
  const flow = new Flow(connections, byName);
  // Per Respond node: what is upstream of it (read once, for every webhook that reaches it).
  const above = new Map<string, Set<string>>();
  const upstream = (respond: string) => above.get(respond) ?? above.set(respond, reach([respond], flow.parents)).get(respond)!;
  const waiting = [...byName].find(
    ([name, { node }]) => !node.disabled && (node.type === WEBHOOK || node.type === FORM_TRIGGER) && value(shaped.get(name), 'responseMode') === 'responseNode',
  )?.[0];
  for (const [name, { node }] of byName) {
    if (node.disabled) continue;
    if (node.type === RESPOND) {
      if ([...upstream(name)].some((n) => starters.has(n))) checkRespond(name, node.typeVersion, upstream(name), flow, out);
      else if (waiting !== undefined) respondNeverRuns(name, waiting, out);
    }
    if (node.type !== WEBHOOK && node.type !== FORM_TRIGGER) continue;
    const mode = value(shaped.get(name), 'responseMode') ?? 'onReceived';
    const below = reach([name], flow.children);
    const responders = [...below].filter((n) => flow.typeOf(n) === RESPOND);
    if (mode === 'responseNode' && responders.length === 0) {
      out.error(
        name,
        'no_respond_node',
        `${quote(name)} answers through a Respond to Webhook node ("responseMode": "responseNode"), but no path from it reaches one: n8n fails the call ("No Respond to Webhook node found in the workflow"). Connect a Respond to Webhook node after it, or set "responseMode" to "onReceived" or "lastNode".`,
        'parameters.responseMode',
      );
    }
    if (responders.length === 0) continue;
    if (mode === 'responseNode') checkItemsReachRespond(name, below, flow, shaped, out);
    // A mode that is no string is the parameters' finding; String() of an object can throw.
    checkUnusedRespond(
      name,
      node.typeVersion,
      node.type,
      typeof mode === 'string' ? mode : JSON.stringify(mode),
      responders.filter((r) => !ownedByWait(upstream(r), below, flow, shaped)),
      out,
    );
  }
}

/**
 * A Respond node no run reaches, in a workflow whose webhook waits for one: the answer it was placed
 * to give is never sent (the calls it was for get another node's answer, or an empty 200).
 */
function respondNeverRuns(name: string, webhook: string, out: Findings): void {
  out.error(
    name,
    'respond_node_unreachable',
    `No path reaches ${quote(name)}, so it never answers: ${quote(webhook)} waits for a Respond to Webhook node, and the calls this one was placed for get another node's answer or an empty 200. Connect it after the node whose items it should answer, or remove it.`,
  );
}

function checkRespond(name: string, typeVersion: number, above: Set<string>, flow: Flow, out: Findings): void {
  if ([...above].some((n) => ANSWERED.has(flow.typeOf(n)))) return;
  const message = `No Webhook, Form Trigger, Chat Trigger or Wait node is upstream of ${quote(name)}, so there is no call for it to answer${typeVersion >= 1.1 ? ': n8n fails it ("No Webhook node found in the workflow")' : ''}. Start the path with a Webhook whose "responseMode" is "responseNode", or remove this node.`;
  if (typeVersion >= 1.1) out.error(name, 'respond_without_webhook', message);
  else out.warning(name, 'respond_without_webhook', message);
}

/** A Respond node after a Wait (below the webhook) that resumes on a webhook or form and waits for it answers that call, not the webhook's. */
function ownedByWait(upstream: Set<string>, below: Set<string>, flow: Flow, shaped: Map<string, ShapedNode>): boolean {
  return [...upstream].some(
    (n) =>
      below.has(n) &&
      flow.typeOf(n) === WAIT &&
      (['webhook', 'form'] as unknown[]).includes(value(shaped.get(n), 'resume')) &&
      value(shaped.get(n), 'responseMode') === 'responseNode',
  );
}

/** Respond nodes below a webhook that does not wait for them: n8n refuses the call (Webhook v2+, Form Trigger). */
function checkUnusedRespond(name: string, typeVersion: number, type: string, mode: string, unused: string[], out: Findings): void {
  if (unused.length === 0) return;
  if (type === FORM_TRIGGER && typeVersion > 2.1) {
    out.error(
      name,
      'unused_respond_node',
      `${quote(unused[0]!)} is a Respond to Webhook after the Form Trigger ${quote(name)}: from Form Trigger 2.2 n8n refuses it ("The Respond to Webhook node is not supported in workflows initiated by the n8n Form Trigger"). End the form with an n8n Form node whose "operation" is "completion" instead.`,
    );
    return;
  }
  if (mode === 'responseNode' || (type === WEBHOOK && mode === 'streaming')) return;
  const refused = type === FORM_TRIGGER || typeVersion >= 2;
  const message = `${quote(unused[0]!)} is a Respond to Webhook after ${quote(name)}, whose "responseMode" is ${quote(mode)}: ${refused ? 'n8n refuses the call ("Unused Respond to Webhook node found in the workflow")' : 'it answers nothing, the webhook has answered already'}. Set "responseMode" to "responseNode", or remove the Respond to Webhook node.`;
  if (refused) out.error(name, 'unused_respond_node', message, 'parameters.responseMode');
  else out.warning(name, 'unused_respond_node', message, 'parameters.responseMode');
}

/**
 * Nodes between a waiting webhook and its Respond nodes where the items can stop: an output that
 * leads to no Respond node (IF's other branch, Switch's other rules, an error output), or a node
 * that drops items (Filter) without "Always Output Data". The call then gets an empty 200.
 */
function checkItemsReachRespond(webhook: string, below: Set<string>, flow: Flow, shaped: Map<string, ShapedNode>, out: Findings): void {
  const onPath = [webhook, ...[...below].filter((n) => flow.toRespond.has(n) && flow.typeOf(n) !== RESPOND)];
  for (const name of onPath) {
    const { node, ports } = flow.byName.get(name)!;
    const outputs = ports?.outputs?.filter((p) => p.type === 'main');
    if (outputs && outputs.length > 1) {
      const reaching = new Set((flow.from.get(name) ?? []).filter((c) => flow.toRespond.has(c.target)).map((c) => c.outputIndex));
      for (const [index, port] of outputs.entries()) {
        if (reaching.has(index)) continue;
        out.warning(
          name,
          'items_may_not_reach_respond',
          `Items that ${quote(name)} sends to its output ${index} ("${port.name}") reach no Respond to Webhook node: when all of a call's items go there, ${quote(webhook)} answers an empty 200. Connect that output to a Respond to Webhook node too.`,
        );
      }
    } else if ((node as { alwaysOutputData?: unknown }).alwaysOutputData !== true && flow.children.has(name)) {
      const observed = shaped.get(name)?.observed;
      if (!observed?.runs_out.includes(0)) continue;
      out.warning(
        name,
        'items_may_not_reach_respond',
        `${quote(name)} can put out no items (seen on a real n8n: ${whenItRunsOut(observed)}), and then nothing after it runs: no Respond to Webhook node answers and ${quote(webhook)} answers an empty 200. Turn on "Always Output Data" in its settings ("alwaysOutputData": true: it then puts out one empty item, so read fields with a default after it), or answer the no-items case on its own path.`,
      );
    }
  }
}

/** The observed run in which the configuration put out nothing, in words. */
function whenItRunsOut(observed: ObservedBehaviour): string {
  if (observed.ran_out_on.includes('missing')) return 'on items without the field it reads';
  if (observed.ran_out_on.some((on) => on === 'firstEmpty' || on === 'secondEmpty')) return `with one input empty (${observed.on_one_input_empty})`;
  return 'on items none of which its conditions kept';
}
