/**
 * A workflow too large for one answer (ANSWER_BUDGET_BYTES), read in parts: an outline (every node's
 * name, type, version and size, the rest of the workflow but what is too large) that get_workflow and
 * get_workflow_version answer instead of it, and the nodes asked for by name with what belongs to them
 * (their connections, their pinned items).
 */
import { z } from 'zod';
import { ANSWER_BUDGET_BYTES } from '../../config';
import { own } from '../../lib/ownKeys';
import { bytesInAnswer } from '../../protocol/answerBytes';
import { isPlainObject } from '../../workflows/values';

type Json = Record<string, unknown>;

/** A field of the outline larger than this is left out, and said with its size. */
const FIELD_BYTES = ANSWER_BUDGET_BYTES / 8;

export const nodeNames = z
  .array(z.string().min(1))
  .min(1)
  .max(500)
  .optional()
  .describe('Only these nodes, by name, with their connections and pinned items: for a workflow too large for one answer');

const nameOf = (node: unknown): unknown => (isPlainObject(node) ? node.name : undefined);

/** The workflow with only the nodes named, what comes from them, and a note that it is not the whole workflow. */
export function withNodes(workflow: Json, names: string[]): Json {
  const nodes = Array.isArray(workflow.nodes) ? workflow.nodes : [];
  const kept = nodes.filter((node) => names.includes(nameOf(node) as string));
  const keptNames = new Set(kept.map(nameOf));
  const missing = names.filter((name) => !keptNames.has(name));
  const only = (field: unknown) => (isPlainObject(field) ? Object.fromEntries(Object.entries(field).filter(([name]) => keptNames.has(name))) : field);
  return {
    ...workflow,
    nodes: kept,
    connections: only(workflow.connections),
    ...(workflow.pinData ? { pinData: only(workflow.pinData) } : {}),
    partial:
      `Only ${kept.length} of the workflow's ${nodes.length} nodes, with the connections that leave them: not a workflow to send back whole ` +
      '(update_workflow would delete the others); edit_workflow changes nodes in place.',
    ...(missing.length ? { notFound: missing } : {}),
  };
}

const counted = (items: number) => `${items} item${items === 1 ? '' : 's'}`;

/** Bytes of the items pinned on a node, which come with it. */
const pinnedBytes = (pinData: unknown, name: unknown): number => {
  const items = isPlainObject(pinData) && typeof name === 'string' ? own(pinData, name) : undefined;
  return items === undefined ? 0 : bytesInAnswer(items);
};

/**
 * What get_workflow and get_workflow_version answer of a workflow too large for one answer: every node's
 * name, type, version and bytes, its other fields but those too large (said with their size), pinned
 * items counted per node, and how to read the nodes (`said`: its size and the budget).
 */
export function workflowOutline(workflow: Json, said: string, readWith: string): Json {
  const nodes = Array.isArray(workflow.nodes) ? workflow.nodes : [];
  const fields = Object.fromEntries(
    Object.entries(workflow)
      .filter(([key]) => key !== 'nodes' && key !== 'pinData')
      .map(([key, value]) => {
        const bytes = bytesInAnswer(value);
        return [key, bytes > FIELD_BYTES ? `(${bytes.toLocaleString('en-US')} bytes: left out)` : value];
      }),
  );
  const pinData = isPlainObject(workflow.pinData)
    ? { pinData: Object.fromEntries(Object.entries(workflow.pinData).map(([node, items]) => [node, counted(Array.isArray(items) ? items.length : 0)])) }
    : {};
  return {
    ...fields,
    nodes: nodes.map((node) => ({
      name: nameOf(node),
      type: isPlainObject(node) ? node.type : undefined,
      typeVersion: isPlainObject(node) ? node.typeVersion : undefined,
      bytes: bytesInAnswer(node) + pinnedBytes(workflow.pinData, nameOf(node)),
    })),
    ...pinData,
    answerTooLarge:
      `${said} Its nodes are listed with their size: read them with ${readWith} and nodes (names), as many at a time as ` +
      `come to less than ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} bytes; edit_workflow changes nodes in place without sending the workflow whole.`,
  };
}
