/**
 * validate_workflow: a whole workflow against the catalog, each node against the description of its
 * own typeVersion. Pure: (workflow JSON, catalog view) → findings. Disabled nodes and sticky notes are
 * not judged (they still count as names that connections and expressions may use).
 */
import type { NodeSpec, ObservedBehaviour } from '../catalog/nodeSpec';
import { matchingBehaviour, observedConfigurations } from '../catalog/observed';
import { checkConnections, checkRequiredInputs, readConnections, type Endpoint } from './connections';
import { checkDataFlow } from './dataFlow';
import { codeIn, referencedNodes, strings } from './expressions';
import { clip, describe, Findings, quote, type ValidationResult } from './findings';
import { checkGraph, startsRun } from './graph';
import type { NodeCatalog } from './nodeCatalog';
import type { ShapedNode } from './outputShapes';
import { checkSubWorkflowCalls } from './subWorkflows';
import { checkWebhookAnswers } from './webhookAnswers';
import { checkExpressions } from './parameters';
import { portsOfNode } from './ports';
import { isPlainObject, nodeValues } from './values';
import { checkNode, readNode, resolveSpec, Trials, type WorkflowNode } from './validateNode';

export const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/**
 * `out` collects the findings: by default the first MAX_FINDINGS of each kind, the rest counted.
 * `callees`: workflows its Execute Workflow nodes call, by id, where the caller has them.
 */
export function validateWorkflow(
  workflow: unknown,
  catalog: NodeCatalog,
  out = new Findings(),
  callees: ReadonlyMap<string, unknown> = new Map(),
): ValidationResult {
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) {
    out.error(
      null,
      'invalid_workflow',
      `A workflow is an object with a "nodes" list and a "connections" object, not ${describe(isPlainObject(workflow) ? workflow.nodes : workflow)}${isPlainObject(workflow) ? ' for "nodes"' : ''}.`,
    );
    return out.result();
  }
  const byName = new Map<string, Endpoint>();
  const idToName = new Map<string, string>();
  const starters = new Set<string>();
  const codeParameters = new Map<string, Set<string>>();
  const shaped = new Map<string, ShapedNode>();
  const trials = new Trials();
  for (const [i, raw] of workflow.nodes.entries()) {
    const node = readNode(raw, `nodes[${i}]`, out);
    if (!node) continue;
    if (byName.has(node.name)) {
      out.error(
        node.name,
        'duplicate_node_name',
        `Two nodes are named ${quote(node.name)}: names must be unique (connections and expressions find nodes by name).`,
        `nodes[${i}].name`,
      );
      continue;
    }
    if (typeof node.id === 'string' && node.id !== '') {
      if (idToName.has(node.id))
        out.error(
          node.name,
          'duplicate_node_id',
          `${quote(node.name)} has the same id as ${quote(idToName.get(node.id)!)}: ids must be unique.`,
          `nodes[${i}].id`,
        );
      else idToName.set(node.id, node.name);
    }
    if (node.type === STICKY_NOTE) continue;
    const endpoint = judge(node, catalog, out, trials);
    byName.set(node.name, endpoint.endpoint);
    if (endpoint.startsRun) starters.add(node.name);
    codeParameters.set(node.name, endpoint.codeParameters);
    if (endpoint.shaped) shaped.set(node.name, endpoint.shaped);
  }
  const connections = readConnections(workflow.connections, out);
  // Connections may come from sticky notes' names only by mistake: those are not nodes to connect.
  checkConnections(connections, byName, idToName, out);
  checkRequiredInputs(connections, byName, out);
  checkReferences(workflow.nodes, byName, idToName, codeParameters, out);
  checkGraph(connections, byName, starters, out);
  checkDataFlow(connections, byName, shaped, workflow.pinData, codeParameters, out);
  checkWebhookAnswers(connections, byName, shaped, starters, out);
  checkMissingFieldFailures(byName, shaped, out);
  checkSubWorkflowCalls(
    [...byName.values()].map((e) => e.node),
    callees,
    out,
  );
  return out.result();
}

/** A node's own checks; what the workflow rules need of it. */
function judge(
  node: WorkflowNode,
  catalog: NodeCatalog,
  out: Findings,
  trials: Trials,
): { endpoint: Endpoint; startsRun: boolean; codeParameters: Set<string>; shaped?: ShapedNode } {
  const findings = node.disabled ? new Findings() : out;
  const spec = resolveSpec(node, catalog, findings);
  if (!spec) {
    if (!node.disabled) checkExpressions(node.name, node.parameters, out);
    const endpoint: Endpoint = { node, ports: null, displayName: clip(node.type) };
    // An unknown node could be anything: it may start the run, so nothing after it is called unreachable.
    return { endpoint, startsRun: !node.disabled, codeParameters: new Set() };
  }
  const values = nodeValues(spec.parameters, node);
  if (!node.disabled) checkNode(node, spec, out, trials, values);
  const endpoint: Endpoint = { node, ports: portsOfNode(spec, node, values), displayName: spec.display_name };
  return {
    endpoint,
    startsRun: !node.disabled && startsRun(endpoint, spec.node_type),
    codeParameters: new Set(spec.parameters.filter((p) => p.type === 'code').map((p) => p.name)),
    shaped: { type: node.type, typeVersion: node.typeVersion, values, ...observedOf(spec, node.typeVersion, values) },
  };
}

/** Expressions and code that name a node the workflow does not have: `$('Name')`, `$node["Name"]`, `$items("Name")`. */
function checkReferences(
  nodes: unknown[],
  byName: Map<string, Endpoint>,
  idToName: Map<string, string>,
  codeParameters: Map<string, Set<string>>,
  out: Findings,
): void {
  const names = new Set([
    ...byName.keys(),
    ...nodes
      .filter(isPlainObject)
      .map((n) => n.name)
      .filter((n): n is string => typeof n === 'string'),
  ]);
  const near = nearNames(names);
  for (const [name, { node }] of byName) {
    if (node.disabled || !isPlainObject(node.parameters)) continue;
    const code = codeParameters.get(name) ?? new Set();
    for (const string of strings(node.parameters, 'parameters')) {
      for (const part of codeIn(string.value, code.has(string.top) ? string.top : null)) {
        for (const ref of referencedNodes(part)) {
          if (names.has(ref)) continue;
          const real = idToName.get(ref);
          out.error(
            name,
            'unknown_node_reference',
            `${clip(string.path)} refers to a node ${quote(ref)} that this workflow does not have${real ? ` (${quote(ref)} is the id of ${quote(real)}: refer to nodes by name)` : ''}.${near(ref)}`,
            string.path,
          );
        }
      }
    }
  }
}

/** " Did you mean …?" with the first name that differs from a reference only in case or surrounding spaces. */
function nearNames(names: Set<string>): (ref: string) => string {
  const list = [...names];
  const first = (key: (name: string) => string) => {
    const at = new Map<string, number>();
    list.forEach((name, i) => at.has(key(name)) || at.set(key(name), i));
    return at;
  };
  const lower = first((n) => n.toLowerCase());
  const trimmed = first((n) => n.trim());
  return (ref) => {
    const i = Math.min(lower.get(ref.toLowerCase()) ?? Infinity, trimmed.get(ref.trim()) ?? Infinity);
    return i === Infinity ? '' : ` Did you mean ${quote(list[i]!)}?`;
  };
}

/** The observed configuration nearest the node's values (src/catalog/observed.ts), when the node version was observed. */
function observedOf(spec: NodeSpec, typeVersion: number, values: Record<string, unknown>): { observed?: ObservedBehaviour; observedSampleFields?: string[] } {
  const configurations = observedConfigurations(spec.observed, typeVersion);
  const observed = configurations ? matchingBehaviour(configurations, values) : undefined;
  return observed ? { observed, observedSampleFields: spec.observed!.sample_fields } : {};
}

/**
 * Nodes whose configuration was seen to fail on an item without the field it reads (Sort: "Couldn't
 * find the field …"; Crypto: "The \"data\" argument must be …"): a call whose items lack it fails the
 * run. Not said of a node set to go on after an error.
 */
function checkMissingFieldFailures(byName: Map<string, Endpoint>, shaped: Map<string, ShapedNode>, out: Findings): void {
  for (const [name, { node }] of byName) {
    const failure = shaped.get(name)?.observed?.fails_on_missing_field;
    if (node.disabled || !failure || (node as { onError?: unknown }).onError !== undefined) continue;
    out.warning(
      name,
      'fails_on_missing_field',
      `${quote(name)} fails on an item without the field it reads (seen on a real n8n: "${clip(failure, 120)}"), and the run stops there. If items may lack it, give it a default first (an Edit Fields before it, e.g. "={{ $json.field ?? '' }}"), or set "onError" to "continueRegularOutput".`,
    );
  }
}
