/**
 * The node gate: every request that puts nodes into n8n or runs them (a create, a save, an activation,
 * a call of a trigger) passes it before it is sent (N8nClient asks it; no client is made without one).
 * Of the nodes the request brings into play (src/workflows/nodeClasses.ts nodesInPlay: new or changed
 * ones, ones a change now feeds, all of them for a run), each class a node is in must be one the
 * deployment allows and the caller has the scope of (src/auth/nodePolicy.ts); else the request is
 * refused, naming the node, its class, the scope and the n8n setting that bounds it at the source.
 */
import type { Env } from '../../env';
import { GateRefusal, N8nApiError, type GatedRequest, type N8nClient, type WorkflowGate } from '../../n8n/client';
import type { Principal } from '../../principal';
import type { WorkspaceRecord } from '../../workspaces/workspaces';
import { AT_THE_SOURCE, classRefusal, nodePolicyOf, type NodePolicy } from '../../auth/nodePolicy';
import {
  errorWorkflowOf,
  nodeClasses,
  nodesInPlay,
  NODE_CLASSES,
  workflowCall,
  type ClassOverrides,
  type Classed,
  type NodeClass,
  type WorkflowCall,
} from '../../workflows/nodeClasses';
import { isPlainObject } from '../../workflows/values';
import { liveVersionOf, publishingOf } from './publishing';
import { workflowPath, type Workflow } from './workflowApi';

/** A node in play that is in at least one class. */
interface GuardedNode {
  node: string;
  type: string;
  classes: Classed[];
}

/** How deep calls of other workflows are followed; one nested deeper counts as able to run anything. */
const MAX_CALL_DEPTH = 3;
/** Nodes a refusal names; the rest are counted. */
const NAMED = 10;

const isWorkflow = (value: unknown): value is Workflow => isPlainObject(value) && typeof value.id === 'string';

/** The gate of one call: `caller`'s scopes under the deployment's node policy, narrowed by its workspace's. */
export function nodeGate(caller: Principal, env: Env, workspace?: WorkspaceRecord): WorkflowGate {
  const policy = nodePolicyOf(env, workspace);
  // What the call found of each workflow: a put-back restores it, and restoring what was there brings nothing new into play.
  const found = new Map<string, Workflow>();
  return {
    read(workflow) {
      if (isWorkflow(workflow) && !found.has(workflow.id)) found.set(workflow.id, workflow);
    },
    async check(request, n8n) {
      const { doing, before, after } = await sides(request, n8n, found);
      const guarded = await guardedInPlay(before, after, n8n, policy.overrides, request.kind === 'create' ? [] : [request.id]);
      const refused = refusals(caller, policy, guarded);
      if (refused.length) throw new GateRefusal(refusalText(doing, refused));
    },
  };
}

/** What a request changes from (`before`: every version the call knows of) and to, and how a refusal says what was asked. */
async function sides(request: GatedRequest, n8n: N8nClient, found: ReadonlyMap<string, Workflow>) {
  if (request.kind === 'create') return { doing: 'Creating this workflow', before: [], after: request.workflow };
  const now = await n8n.get<Workflow>(workflowPath(request.id));
  const first = found.get(request.id);
  switch (request.kind) {
    case 'replace':
      return { doing: `Saving workflow ${request.id}`, before: [now, first].filter(Boolean), after: request.workflow };
    case 'activate': {
      // What runs before and after: the published version (none while inactive); activation publishes the saved one,
      // or, putting a change back, the version that was published when the call found the workflow.
      const live = [now, first].filter((w): w is Workflow => w?.active === true).map((w) => ({ ...liveVersionOf(w), settings: w.settings }));
      const restoring = first && request.versionId !== undefined && request.versionId === publishingOf(first).liveVersionId;
      return { doing: `Activating workflow ${request.id}`, before: live, after: restoring ? { ...liveVersionOf(first), settings: first.settings } : now };
    }
    case 'run':
      return {
        doing: `Running workflow ${request.id}`,
        before: [],
        after: now.active === true ? { ...liveVersionOf(now), settings: now.settings } : now,
      };
  }
}

/**
 * The classed nodes a change from `before` to `after` brings into play, with the classes of the
 * workflows they call (`calling`: the chain of workflows being judged, so a call back into one is not
 * followed again) and of the error workflow it newly names (or names at all, for a run).
 */
async function guardedInPlay(
  before: readonly unknown[],
  after: unknown,
  n8n: N8nClient,
  overrides: ClassOverrides,
  calling: readonly string[],
): Promise<GuardedNode[]> {
  const guarded: GuardedNode[] = [];
  for (const node of nodesInPlay(before, after)) {
    const call = workflowCall(node);
    const classes = merged([...nodeClasses(node, overrides), ...(call ? await callClasses(call, n8n, overrides, calling) : [])]);
    if (classes.length) guarded.push({ node: node.name, type: String(node.type), classes });
  }
  const errorWorkflow = errorWorkflowOf(after);
  if (errorWorkflow !== null && !before.some((w) => errorWorkflowOf(w) === errorWorkflow)) {
    const classes = await callClasses({ id: errorWorkflow }, n8n, overrides, calling);
    if (classes.length) guarded.push({ node: '(its error workflow, settings.errorWorkflow)', type: 'settings.errorWorkflow', classes });
  }
  return guarded;
}

/** One entry per class, the first reason kept. */
function merged(classes: Classed[]): Classed[] {
  const byClass = new Map<NodeClass, Classed>();
  for (const c of classes) if (!byClass.has(c.class)) byClass.set(c.class, c);
  return [...byClass.values()];
}

/** Every class, for a call this server cannot see through. */
const anything = (why: string, host?: true): Classed[] =>
  NODE_CLASSES.map((c) => ({ class: c, why: `${why}, which may do anything${host && c === 'host' ? ' (and reads the host’s files to find it)' : ''}` }));

/**
 * The classes of what a node that runs another workflow runs: every classed node of that workflow
 * (it runs with the items it is given), read from n8n when it is saved there, followed MAX_CALL_DEPTH deep.
 */
async function callClasses(call: WorkflowCall, n8n: N8nClient, overrides: ClassOverrides, calling: readonly string[]): Promise<Classed[]> {
  if ('unknown' in call) return anything(`runs another workflow: ${call.unknown}`, call.host);
  if (calling.length > MAX_CALL_DEPTH) return anything('runs workflows nested deeper than this server follows');
  if ('inline' in call) return classesWithin(call.inline, 'the workflow it is given inline', n8n, overrides, [...calling, '(inline)']);
  if (calling.includes(call.id)) return [];
  try {
    const target = await n8n.get<Workflow>(workflowPath(call.id));
    return await classesWithin(target, `workflow ${call.id}`, n8n, overrides, [...calling, call.id]);
  } catch (error) {
    // A workflow that is not there runs nothing (n8n fails the call).
    if (error instanceof N8nApiError && error.status === 404) return [];
    throw error;
  }
}

/** The classes of every classed node of a called workflow, each said as the caller's. */
async function classesWithin(target: unknown, named: string, n8n: N8nClient, overrides: ClassOverrides, calling: readonly string[]): Promise<Classed[]> {
  const inside = await guardedInPlay([], target, n8n, overrides, calling);
  return merged(inside.flatMap((g) => g.classes.map((c) => ({ class: c.class, why: `runs ${named}, whose "${g.node}" ${c.why}` }))));
}

interface Refusal {
  node: GuardedNode;
  class: NodeClass;
  why: string;
  because: string;
}

function refusals(caller: Principal, policy: NodePolicy, guarded: GuardedNode[]): Refusal[] {
  return guarded.flatMap((node) =>
    node.classes.flatMap((c) => {
      const because = classRefusal(caller, policy, c.class);
      return because === null ? [] : [{ node, class: c.class, why: c.why, because }];
    }),
  );
}

/** The refusal: each node and class refused, why, and what bounds the class in n8n itself. */
function refusalText(doing: string, refused: Refusal[]): string {
  const lines = refused.slice(0, NAMED).map((r) => `"${r.node.node}" (${r.node.type}) ${r.why}: class "${r.class}", and ${r.because}`);
  const more = refused.length > NAMED ? ` (and ${refused.length - NAMED} more)` : '';
  const sources = [...new Set(refused.map((r) => r.class))].map((c) => `${c}: ${AT_THE_SOURCE[c]}`);
  return (
    `Refused: ${doing} puts into play nodes this credential may not use — ${lines.join('; ')}${more}. ` +
    `Nothing of this request was sent to n8n. Ask the operator for the scope, or leave these nodes out. In n8n itself: ${sources.join('; ')}.`
  );
}
