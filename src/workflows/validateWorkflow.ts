/**
 * validate_workflow: a whole workflow against the catalog, each node against the description of its
 * own typeVersion. Pure: (workflow JSON, catalog view) → findings. Disabled nodes and sticky notes are
 * not judged (they still count as names that connections and expressions may use).
 */
import { checkConnections, checkRequiredInputs, readConnections, type Endpoint } from './connections';
import { codeIn, referencedNodes, strings } from './expressions';
import { Findings, type ValidationResult } from './findings';
import { checkGraph, startsRun } from './graph';
import type { NodeCatalog } from './nodeCatalog';
import { checkExpressions, describe } from './parameters';
import { portsOfNode } from './ports';
import { isPlainObject } from './values';
import { checkNode, readNode, resolveSpec, type WorkflowNode } from './validateNode';

export const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

export function validateWorkflow(workflow: unknown, catalog: NodeCatalog): ValidationResult {
  const out = new Findings();
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) {
    out.error(null, 'invalid_workflow', `A workflow is an object with a "nodes" list and a "connections" object, not ${describe(isPlainObject(workflow) ? workflow.nodes : workflow)}${isPlainObject(workflow) ? ' for "nodes"' : ''}.`);
    return out.result();
  }
  const byName = new Map<string, Endpoint>();
  const idToName = new Map<string, string>();
  const starters = new Set<string>();
  const codeParameters = new Map<string, Set<string>>();
  for (const [i, raw] of workflow.nodes.entries()) {
    const node = readNode(raw, `nodes[${i}]`, out);
    if (!node) continue;
    if (byName.has(node.name)) {
      out.error(node.name, 'duplicate_node_name', `Two nodes are named "${node.name}": names must be unique (connections and expressions find nodes by name).`, `nodes[${i}].name`);
      continue;
    }
    if (typeof node.id === 'string' && node.id !== '') {
      if (idToName.has(node.id)) out.error(node.name, 'duplicate_node_id', `"${node.name}" has the same id as "${idToName.get(node.id)}": ids must be unique.`, `nodes[${i}].id`);
      else idToName.set(node.id, node.name);
    }
    if (node.type === STICKY_NOTE) continue;
    const endpoint = judge(node, catalog, out);
    byName.set(node.name, endpoint.endpoint);
    if (endpoint.startsRun) starters.add(node.name);
    codeParameters.set(node.name, endpoint.codeParameters);
  }
  const connections = readConnections(workflow.connections, out);
  // Connections may come from sticky notes' names only by mistake: those are not nodes to connect.
  checkConnections(connections, byName, idToName, out);
  checkRequiredInputs(connections, byName, out);
  checkReferences(workflow.nodes, byName, idToName, codeParameters, out);
  checkGraph(connections, byName, starters, out);
  return out.result();
}

/** A node's own checks; what the workflow rules need of it. */
function judge(node: WorkflowNode, catalog: NodeCatalog, out: Findings): { endpoint: Endpoint; startsRun: boolean; codeParameters: Set<string> } {
  const findings = node.disabled ? new Findings() : out;
  const spec = resolveSpec(node, catalog, findings);
  if (!spec) {
    if (!node.disabled) checkExpressions(node.name, node.parameters, out);
    const endpoint: Endpoint = { node, ports: null, displayName: node.type };
    // An unknown node could be anything: it may start the run, so nothing after it is called unreachable.
    return { endpoint, startsRun: !node.disabled, codeParameters: new Set() };
  }
  if (!node.disabled) checkNode(node, spec, out);
  const endpoint: Endpoint = { node, ports: portsOfNode(spec, node), displayName: spec.display_name };
  return {
    endpoint,
    startsRun: !node.disabled && startsRun(endpoint, spec.node_type),
    codeParameters: new Set(spec.parameters.filter((p) => p.type === 'code').map((p) => p.name)),
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
  const names = new Set([...byName.keys(), ...nodes.filter(isPlainObject).map((n) => n.name).filter((n): n is string => typeof n === 'string')]);
  for (const [name, { node }] of byName) {
    if (node.disabled || !isPlainObject(node.parameters)) continue;
    const code = codeParameters.get(name) ?? new Set();
    for (const { path, value } of strings(node.parameters, 'parameters')) {
      const top = path.split(/[.[]/)[1] ?? '';
      for (const part of codeIn(value, code.has(top))) {
        for (const ref of referencedNodes(part)) {
          if (names.has(ref)) continue;
          const real = idToName.get(ref);
          out.error(
            name,
            'unknown_node_reference',
            `${path} refers to a node "${ref}" that this workflow does not have${real ? ` ("${ref}" is the id of "${real}": refer to nodes by name)` : ''}.${nearName(ref, names)}`,
            path,
          );
        }
      }
    }
  }
}

function nearName(ref: string, names: Set<string>): string {
  const lower = ref.toLowerCase();
  const match = [...names].find((n) => n.toLowerCase() === lower || n.trim() === ref.trim());
  return match ? ` Did you mean "${match}"?` : '';
}
