import { own } from '../lib/ownKeys';
import { STICKY_NOTE, type ViewEdge, type ViewNode, type ViewWorkflow } from './workflow';

/**
 * Where the view draws each node, port and connection, as n8n's canvas does: a node's position is
 * its top-left corner; a node is a 100-unit square (a trigger rounded on its left), a sub-node that
 * only feeds an AI port of another (a model, a memory, a tool) an 80-unit circle with its output on
 * top, and a node that takes AI ports (an agent) wider, with those inputs along its bottom. Main
 * inputs are on the left, main outputs on the right, spread evenly. Pure: the same workflow is always
 * laid out the same.
 */

type NodeShape = 'node' | 'trigger' | 'subnode' | 'root' | 'sticky';

export interface Point {
  x: number;
  y: number;
}

export interface NodeBox {
  node: ViewNode;
  shape: NodeShape;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Main inputs on the left edge, by index. */
  inputs: Point[];
  /** Main outputs on the right edge, by index. */
  outputs: Point[];
  /** AI ports a root node takes, along its bottom edge, by type. */
  aiInputs: Map<string, Point>;
  /** A sub-node's output, on its top edge. */
  aiOutput?: Point;
}

export interface EdgePath {
  edge: ViewEdge;
  /** SVG path data. */
  d: string;
  /** Where an item count is written: the middle of the path. */
  middle: Point;
  ai: boolean;
}

export interface Layout {
  boxes: Map<string, NodeBox>;
  paths: EdgePath[];
  /** The box around everything drawn. */
  bounds: { x: number; y: number; width: number; height: number };
}

const NODE = 100;
const SUBNODE = 80;
const ROOT_WIDTH = 240;
const STICKY = { width: 240, height: 160 };
const TRIGGER = /trigger$|\.webhook$|\.start$|\.formTrigger$|\.manualTrigger$/i;

const isAi = (type: string) => type !== 'main';

/** The types of workflow's nodes that only feed AI ports, and those that take them. */
function roles(edges: readonly ViewEdge[]): { feeds: Set<string>; takes: Map<string, string[]> } {
  const feeds = new Set<string>();
  const takes = new Map<string, string[]>();
  for (const edge of edges) {
    if (!isAi(edge.type)) continue;
    feeds.add(edge.from);
    const types = takes.get(edge.to) ?? [];
    if (!types.includes(edge.type)) types.push(edge.type);
    takes.set(edge.to, types);
  }
  return { feeds, takes };
}

/** The names n8n gives the outputs of the nodes most used with several. */
export const OUTPUT_NAMES: Record<string, readonly string[]> = {
  'n8n-nodes-base.if': ['true', 'false'],
  'n8n-nodes-base.filter': ['Kept', 'Discarded'],
  'n8n-nodes-base.compareDatasets': ['In A only', 'Same', 'Different', 'In B only'],
  'n8n-nodes-base.removeDuplicates': ['Kept', 'Discarded'],
};

/**
 * The most ports drawn on one side of a node: n8n's widest (a Switch's rules, a Merge's inputs) stay well under it;
 * a connection naming a higher index (any workflow may) is drawn to the last, and draws no million ports.
 */
const MAX_PORTS = 32;

const spread = (count: number, length: number): number[] => Array.from({ length: count }, (_, i) => (length * (i + 1)) / (count + 1));

export function layOut(workflow: ViewWorkflow): Layout {
  const { feeds, takes } = roles(workflow.edges);
  const mainSides = new Map<string, { inputs: number; outputs: number }>();
  const side = (name: string) => mainSides.get(name) ?? mainSides.set(name, { inputs: 0, outputs: 0 }).get(name)!;
  for (const edge of workflow.edges) {
    if (isAi(edge.type)) continue;
    side(edge.from).outputs = Math.max(side(edge.from).outputs, edge.output + 1);
    side(edge.to).inputs = Math.max(side(edge.to).inputs, edge.input + 1);
  }

  const boxes = new Map<string, NodeBox>();
  for (const node of workflow.nodes) {
    const [x, y] = node.position;
    const base = { node, x, y, inputs: [] as Point[], outputs: [] as Point[], aiInputs: new Map<string, Point>() };
    if (node.type === STICKY_NOTE) {
      const width = Number(node.parameters.width) || STICKY.width;
      const height = Number(node.parameters.height) || STICKY.height;
      boxes.set(node.name, { ...base, shape: 'sticky', width, height });
      continue;
    }
    const aiTypes = takes.get(node.name) ?? [];
    const subnode = feeds.has(node.name) && !mainSides.has(node.name);
    const shape: NodeShape = subnode ? 'subnode' : aiTypes.length > 0 ? 'root' : TRIGGER.test(node.type) ? 'trigger' : 'node';
    const width = shape === 'subnode' ? SUBNODE : shape === 'root' ? ROOT_WIDTH : NODE;
    const height = shape === 'subnode' ? SUBNODE : NODE;
    const ports = mainSides.get(node.name) ?? { inputs: 0, outputs: 0 };
    const inputs = shape === 'trigger' || shape === 'subnode' ? 0 : Math.min(MAX_PORTS, Math.max(1, ports.inputs));
    // A node whose outputs n8n names has them all, connected or not (an If's false with nothing on it).
    const outputs = shape === 'subnode' ? 0 : Math.min(MAX_PORTS, Math.max(1, ports.outputs, own(OUTPUT_NAMES, node.type)?.length ?? 0));
    const box: NodeBox = {
      ...base,
      shape,
      width,
      height,
      inputs: spread(inputs, height).map((dy) => ({ x, y: y + dy })),
      outputs: spread(outputs, height).map((dy) => ({ x: x + width, y: y + dy })),
      ...(shape === 'subnode' ? { aiOutput: { x: x + width / 2, y } } : {}),
    };
    spread(aiTypes.length, width).forEach((dx, i) => box.aiInputs.set(aiTypes[i]!, { x: x + dx, y: y + height }));
    boxes.set(node.name, box);
  }

  const paths: EdgePath[] = [];
  for (const edge of workflow.edges) {
    const from = boxes.get(edge.from);
    const to = boxes.get(edge.to);
    if (!from || !to || from.shape === 'sticky' || to.shape === 'sticky') continue;
    const ai = isAi(edge.type);
    const start = ai ? (from.aiOutput ?? { x: from.x + from.width / 2, y: from.y }) : (from.outputs[edge.output] ?? from.outputs.at(-1));
    const end = ai
      ? (to.aiInputs.get(edge.type) ?? { x: to.x + to.width / 2, y: to.y + to.height })
      : (to.inputs[edge.input] ?? to.inputs.at(-1) ?? { x: to.x, y: to.y + to.height / 2 });
    if (!start) continue;
    paths.push({ edge, ai, d: ai ? vertical(start, end) : horizontal(start, end), middle: { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 } });
  }

  return { boxes, paths, bounds: boundsOf(boxes.values()) };
}

/** A main connection: out to the right, in from the left; one that runs backwards loops around. */
function horizontal(a: Point, b: Point): string {
  const reach = Math.max(40, Math.abs(b.x - a.x) / 2);
  return `M${a.x} ${a.y}C${a.x + reach} ${a.y} ${b.x - reach} ${b.y} ${b.x} ${b.y}`;
}

/** An AI connection: up out of the sub-node, into the bottom of the node it serves. */
function vertical(a: Point, b: Point): string {
  const reach = Math.max(30, Math.abs(b.y - a.y) / 2);
  return `M${a.x} ${a.y}C${a.x} ${a.y - reach} ${b.x} ${b.y + reach} ${b.x} ${b.y}`;
}

function boundsOf(boxes: Iterable<NodeBox>): Layout['bounds'] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const box of boxes) {
    minX = Math.min(minX, box.x);
    minY = Math.min(minY, box.y);
    maxX = Math.max(maxX, box.x + box.width);
    // Room for the name written under a node.
    maxY = Math.max(maxY, box.y + box.height + (box.shape === 'sticky' ? 0 : 40));
  }
  if (minX === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
