/**
 * A workflow's connections against its nodes and their ports: every connection from and to a node
 * that exists, through an output and an input the nodes have for their parameters (main or ai_*),
 * AI root nodes with the sub-nodes they need and no more than they take.
 */
import { clip, describe, quote, type Findings } from './findings';
import type { NodePort, NodePorts } from './ports';
import { isPlainObject } from './values';
import type { WorkflowNode } from './validateNode';

export interface Connection {
  source: string;
  /** The output's connection type (`main`, `ai_languageModel`…) and its index among that type's outputs. */
  outputType: string;
  outputIndex: number;
  target: string;
  inputType: string;
  inputIndex: number;
  path: string;
}

/** A node as the connection rules see it: ports null when unknown (unknown type, undecidable). */
export interface Endpoint {
  node: WorkflowNode;
  ports: NodePorts | null;
  displayName: string;
}

/** Reads n8n's `connections` object (`{source: {type: [[{node, type, index}], …]}}`), reporting bad shapes. */
export function readConnections(raw: unknown, out: Findings): Connection[] {
  if (raw === undefined) return [];
  if (!isPlainObject(raw)) {
    out.error(null, 'invalid_connections', `"connections" must be an object keyed by source node name, not ${describe(raw)}.`, 'connections');
    return [];
  }
  const list: Connection[] = [];
  for (const [source, byType] of Object.entries(raw)) {
    if (!isPlainObject(byType)) {
      out.error(
        source,
        'invalid_connections',
        `connections[${quote(source)}] must be an object keyed by connection type ("main", "ai_tool"…).`,
        `connections.${source}`,
      );
      continue;
    }
    for (const [outputType, outputs] of Object.entries(byType)) {
      const at = `connections.${source}.${outputType}`;
      if (!Array.isArray(outputs)) {
        out.error(source, 'invalid_connections', `${clip(at)} must be a list with one entry per output.`, at);
        continue;
      }
      for (const [outputIndex, targets] of outputs.entries()) {
        if (targets === null || targets === undefined) continue;
        if (!Array.isArray(targets)) {
          out.error(source, 'invalid_connections', `${clip(at)}[${outputIndex}] must be a list of {node, type, index}.`, `${at}[${outputIndex}]`);
          continue;
        }
        for (const [k, t] of targets.entries()) {
          const path = `${at}[${outputIndex}][${k}]`;
          if (!isPlainObject(t) || typeof t.node !== 'string') {
            out.error(source, 'invalid_connections', `${clip(path)} must be {"node": "<target node name>", "type": ${quote(outputType)}, "index": 0}.`, path);
            continue;
          }
          const inputIndex = typeof t.index === 'number' ? t.index : 0;
          list.push({ source, outputType, outputIndex, target: t.node, inputType: typeof t.type === 'string' ? t.type : outputType, inputIndex, path });
        }
      }
    }
  }
  return list;
}

/** Checks each connection against the nodes; `byName` holds every node, `idToName` their ids. */
export function checkConnections(connections: Connection[], byName: Map<string, Endpoint>, idToName: Map<string, string>, out: Findings): void {
  for (const c of connections) {
    const source = byName.get(c.source);
    const target = byName.get(c.target);
    if (!source) {
      out.error(
        c.source,
        'unknown_source_node',
        `Connections come from ${quote(c.source)}, which is not a node of this workflow.${byId(c.source, idToName)}`,
        c.path,
      );
      continue;
    }
    if (!target) {
      out.error(
        c.source,
        'unknown_target_node',
        `${quote(c.source)} is connected to ${quote(c.target)}, which is not a node of this workflow.${byId(c.target, idToName)}`,
        c.path,
      );
      continue;
    }
    if (c.source === c.target) {
      out.error(c.source, 'self_connection', `${quote(c.source)} is connected to itself.`, c.path);
      continue;
    }
    if (source.node.disabled) continue;
    if (c.inputType !== c.outputType) {
      out.error(
        c.source,
        'connection_type_mismatch',
        `A ${clip(c.outputType)} output of ${quote(c.source)} is connected to a ${clip(c.inputType)} input of ${quote(c.target)}: both ends must be the same kind.`,
        c.path,
      );
      continue;
    }
    checkOutput(c, source, out);
    if (!target.node.disabled) checkInput(c, source, target, out);
  }
}

function checkOutput(c: Connection, source: Endpoint, out: Findings): void {
  const outputs = source.ports?.outputs;
  if (!outputs) return;
  const ofType = outputs.filter((p) => p.type === c.outputType);
  if (ofType.length === 0) {
    const has = portList(outputs);
    const subNode = c.outputType === 'main' && outputs.length > 0 && outputs.every((p) => p.type !== 'main');
    out.error(
      c.source,
      'invalid_connection_type',
      subNode
        ? `${quote(c.source)} is an AI sub-node: it has no main output. Connect its ${outputs[0]!.type} output to the ${outputs[0]!.type} input of an AI node ("connections": {${quote(c.source)}: {"${outputs[0]!.type}": [[{"node": "…", "type": "${outputs[0]!.type}", "index": 0}]]}}).`
        : `${quote(c.source)} (${source.displayName}) has no ${clip(c.outputType)} output${has ? `; its outputs: ${has}` : ''}.`,
      c.path,
    );
  } else if (c.outputIndex >= ofType.length) {
    out.error(
      c.source,
      'output_index_out_of_range',
      `${quote(c.source)} (${source.displayName}) has ${ofType.length} ${clip(c.outputType)} output${ofType.length === 1 ? '' : 's'} with these settings (${ofType.map((p, i) => `${i}: ${p.name}`).join(', ')}), so output ${c.outputIndex} does not exist.`,
      c.path,
    );
  }
}

function checkInput(c: Connection, source: Endpoint, target: Endpoint, out: Findings): void {
  const inputs = target.ports?.inputs;
  if (!inputs) return;
  const ofType = inputs.filter((p) => p.type === c.inputType);
  if (ofType.length === 0) {
    const has = portList(inputs);
    out.error(
      c.source,
      'invalid_connection_type',
      `${quote(c.target)} (${target.displayName}) has no ${clip(c.inputType)} input${has ? `; its inputs: ${has}` : ' (it starts a workflow and takes no input)'}.`,
      c.path,
    );
    return;
  }
  if (c.inputIndex >= ofType.length) {
    out.error(
      c.source,
      'input_index_out_of_range',
      `${quote(c.target)} (${target.displayName}) has ${ofType.length} ${clip(c.inputType)} input${ofType.length === 1 ? '' : 's'}, so input ${c.inputIndex} does not exist.`,
      c.path,
    );
    return;
  }
  const port = ofType[c.inputIndex]!;
  if (port.excludedNodes?.includes(source.node.type)) {
    out.error(
      c.source,
      'excluded_sub_node',
      `${source.displayName} cannot be the ${port.name} of ${quote(c.target)} (${target.displayName} does not accept it).`,
      c.path,
    );
  }
}

/** AI inputs a node requires but lacks, and inputs with more connections than they take. */
export function checkRequiredInputs(connections: Connection[], byName: Map<string, Endpoint>, out: Findings): void {
  const count = new Map<string, number>();
  for (const c of connections) {
    if (!byName.has(c.source) || byName.get(c.source)!.node.disabled) continue;
    const key = `${c.target}\u0000${c.inputType}\u0000${c.inputIndex}`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  for (const [name, endpoint] of byName) {
    const inputs = endpoint.ports?.inputs;
    if (!inputs || endpoint.node.disabled) continue;
    const seen = new Map<string, number>();
    for (const port of inputs) {
      const index = seen.get(port.type) ?? 0;
      seen.set(port.type, index + 1);
      if (port.type === 'main') continue;
      const n = count.get(`${name}\u0000${port.type}\u0000${index}`) ?? 0;
      if (port.required && n === 0) {
        out.error(
          name,
          'missing_ai_input',
          `${quote(name)} (${endpoint.displayName}) needs a ${port.name} connected: a node whose ${port.type} output is connected to this node's ${port.type} input${index > 0 ? ` ${index}` : ''}.`,
          `inputs.${port.type}[${index}]`,
        );
      } else if (port.maxConnections !== null && n > port.maxConnections) {
        out.error(
          name,
          'too_many_connections',
          `${quote(name)} (${endpoint.displayName}) takes ${port.maxConnections} ${port.name} connection${port.maxConnections === 1 ? '' : 's'}, and has ${n}.`,
          `inputs.${port.type}[${index}]`,
        );
      }
    }
  }
}

const portList = (ports: NodePort[]) => ports.map((p) => (p.name && p.name !== p.type ? `${p.type} (${p.name})` : p.type)).join(', ');

function byId(name: string, idToName: Map<string, string>): string {
  const real = idToName.get(name);
  return real ? ` Connections name nodes by their name, not their id: ${quote(name)} is the id of ${quote(real)}.` : '';
}
