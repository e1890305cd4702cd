import { importNodes } from '../../scripts/catalog/n8n/importNodes';
import { applyObserved } from '../../scripts/catalog/observe/apply';
import type { ObservedFile } from '../../scripts/catalog/observe/observe';
import observed from '../../specs/observed/behaviour.json';
import type { N8nNode } from '../../scripts/catalog/n8n/mapNode';
import { catalogOf } from '../../src/workflows/nodeCatalog';
import fixture from '../fixtures/n8n/nodes.json';
import flowFixture from '../fixtures/n8n/flowNodes.json';

/**
 * Real n8n node descriptions (n8n-nodes-base / nodes-langchain 2.41), imported as the build imports them;
 * flowNodes.json adds the nodes data-flow, webhook-answer, sub-workflow and node-class rules need (Code, Respond to
 * Webhook, Filter, Form and Chat Trigger, Execute Workflow and its trigger, Summarize, Wait, Limit…), with what
 * `npm run catalog:observe` saw them do (specs/observed/behaviour.json), as the build adds it.
 */
export const n8nSpecs = applyObserved(
  importNodes(
    [fixture, flowFixture].flatMap((f) => Object.entries(f as unknown as Record<string, N8nNode[]>).map(([typePrefix, nodes]) => ({ typePrefix, nodes }))),
  ).specs,
  observed as unknown as ObservedFile,
);

/** The validator's view of them. */
export const n8nCatalog = catalogOf(n8nSpecs);

/** A workflow node, positioned, with n8n's defaults for what is left out. */
export function node(name: string, type: string, typeVersion: number, parameters: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { id: `id-${name}`, name, type: type.includes('.') ? type : `n8n-nodes-base.${type}`, typeVersion, parameters, position: [0, 0], ...extra };
}

/** `{source: {type: [[{node, type, index}], …]}}` from `[source, target, outputIndex?, type?, inputIndex?]` rows. */
export function connect(...rows: [string, string, number?, string?, number?][]) {
  const connections: Record<string, Record<string, { node: string; type: string; index: number }[][]>> = {};
  for (const [source, target, output = 0, type = 'main', input = 0] of rows) {
    const outputs = ((connections[source] ??= {})[type] ??= []);
    while (outputs.length <= output) outputs.push([]);
    outputs[output]!.push({ node: target, type, index: input });
  }
  return connections;
}
