import { OUTPUT_NAMES, type Layout, type NodeBox } from './layout';
import { own } from '../lib/ownKeys';
import type { Finding, Scene } from './scene';
import { nodeLook, iconMarkup } from './nodeLook';

/**
 * Draws a laid-out workflow into an SVG group, as n8n's canvas shows it: connections under nodes,
 * sticky notes under both, each node's icon (or its initials), name and type, and what is laid over
 * it (findings, a change, a run). Every text comes from the workflow, which anyone may have written:
 * it is set as text, never parsed as markup.
 */

const SVG = 'http://www.w3.org/2000/svg';

/** What is laid over the drawing: a scene's findings, marks and runs, by node name. */
export type Overlay = Pick<Scene, 'findings' | 'marks' | 'runs'>;

function el<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  parent?.appendChild(element);
  return element;
}

function text(parent: Element, attributes: Record<string, string | number>, content: string): SVGTextElement {
  const element = el('text', attributes, parent);
  element.textContent = content;
  return element;
}

const clip = (value: string, length: number) => (value.length > length ? `${value.slice(0, length - 1)}…` : value);

const worst = (findings: readonly Finding[]): Finding['severity'] | undefined =>
  findings.some((f) => f.severity === 'error') ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warning' : findings.length ? 'info' : undefined;

/** The symbols of the icons drawn, each defined once in the document. */
function iconSymbol(defs: SVGDefsElement, index: number): string {
  const id = `icon-${index}`;
  if (defs.querySelector(`#${id}`)) return id;
  const parsed = new DOMParser().parseFromString(iconMarkup(index), 'image/svg+xml').documentElement;
  const symbol = el('symbol', { id, viewBox: parsed.getAttribute('viewBox') ?? '0 0 24 24' }, defs);
  for (const child of Array.from(parsed.childNodes)) symbol.appendChild(document.importNode(child, true));
  return id;
}

export function drawWorkflow(world: SVGGElement, defs: SVGDefsElement, layout: Layout, overlay: Overlay): void {
  const stickies = el('g', { class: 'stickies' }, world);
  const edges = el('g', { class: 'edges' }, world);
  const labels = el('g', { class: 'edge-labels' }, world);
  const nodes = el('g', { class: 'nodes' }, world);

  for (const path of layout.paths) {
    const { edge } = path;
    const ran = overlay.runs[edge.from]?.items[edge.output];
    const attributes: Record<string, string | number> = {
      class: `edge${path.ai ? ' ai' : ''}${ran !== undefined && ran > 0 ? ' ran' : ''}`,
      d: path.d,
      'data-from': edge.from,
      'data-to': edge.to,
      'data-type': edge.type,
      'data-output': edge.output,
      'data-input': edge.input,
    };
    el('path', attributes, edges);
    if (ran !== undefined && !path.ai) {
      text(
        labels,
        { class: 'items', x: path.middle.x, y: path.middle.y - 6, 'data-from': edge.from, 'data-to': edge.to, 'data-output': edge.output },
        `${ran} item${ran === 1 ? '' : 's'}`,
      );
    }
  }

  for (const box of layout.boxes.values()) {
    if (box.shape === 'sticky') drawSticky(stickies, box);
    else drawNode(nodes, defs, box, overlay);
  }
}

/** n8n's sticky colours are 1 to 7 (a number, or its digit as a string); anything else is the first. */
const stickyColor = (color: unknown): string =>
  /^[1-7]$/.test(String(typeof color === 'number' || typeof color === 'string' ? color : '')) ? String(color) : '1';

function drawSticky(parent: SVGGElement, box: NodeBox): void {
  const group = el('g', { class: 'sticky', 'data-name': box.node.name, 'data-color': stickyColor(box.node.parameters.color) }, parent);
  el('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: 4 }, group);
  const body = el('foreignObject', { x: box.x, y: box.y, width: box.width, height: box.height }, group);
  const content = document.createElement('div');
  content.className = 'sticky-text';
  content.textContent = typeof box.node.parameters.content === 'string' ? box.node.parameters.content : '';
  body.appendChild(content);
}

function drawNode(parent: SVGGElement, defs: SVGDefsElement, box: NodeBox, overlay: Overlay): void {
  const { node } = box;
  const look = nodeLook(node.type);
  const findings = overlay.findings[node.name] ?? [];
  const run = overlay.runs[node.name];
  const mark = overlay.marks[node.name];
  const group = el('g', { class: 'node', 'data-name': node.name, 'data-type': node.type, 'data-shape': box.shape, tabindex: 0, role: 'button' }, parent);
  group.setAttribute('aria-label', `${node.name} (${look.name})`);
  if (node.disabled) group.setAttribute('data-disabled', '');
  if (mark) group.setAttribute('data-mark', mark);
  if (run) group.setAttribute('data-run', run.status);
  const severity = worst(findings);
  if (severity) group.setAttribute('data-findings', severity);

  const { x, y, width, height } = box;
  if (box.shape === 'subnode') el('circle', { class: 'body', cx: x + width / 2, cy: y + height / 2, r: width / 2 }, group);
  else if (box.shape === 'trigger')
    el(
      'path',
      {
        class: 'body',
        d: `M${x + 36} ${y}H${x + width - 8}a8 8 0 0 1 8 8V${y + height - 8}a8 8 0 0 1 -8 8H${x + 36}a36 36 0 0 1 -36 -36V${y + 36}a36 36 0 0 1 36 -36Z`,
      },
      group,
    );
  else el('rect', { class: 'body', x, y, width, height, rx: 8 }, group);

  const size = box.shape === 'subnode' ? 36 : 44;
  // A root node (an agent) is wide, its name inside beside its icon, as n8n draws it: its AI ports use the space below.
  const ix = box.shape === 'root' ? x + 24 : x + width / 2 - size / 2;
  const iy = y + height / 2 - size / 2;
  // A monochrome icon (Lucide's, for n8n's Font Awesome names) draws in the node's colour.
  if (look.icon !== undefined)
    el('use', { class: 'icon', href: `#${iconSymbol(defs, look.icon)}`, x: ix, y: iy, width: size, height: size, color: look.color ?? '#555' }, group);
  else {
    const badge = el('g', { class: 'badge' }, group);
    el('rect', { x: ix, y: iy, width: size, height: size, rx: 8, fill: look.color ?? '#7d838f' }, badge);
    text(badge, { x: ix + size / 2, y: iy + size / 2 + 6, 'text-anchor': 'middle' }, initials(look.name));
  }

  for (const port of box.inputs) el('rect', { class: 'port in', x: port.x - 4, y: port.y - 8, width: 8, height: 16, rx: 2 }, group);
  const names = own(OUTPUT_NAMES, node.type);
  box.outputs.forEach((port, i) => {
    el('circle', { class: 'port out', cx: port.x, cy: port.y, r: 6 }, group);
    // Which output is which, where a node has several (an If's true and false).
    if (box.outputs.length > 1) text(group, { class: 'port-label out', x: port.x + 10, y: port.y - 8 }, names?.[i] ?? String(i));
  });
  for (const [type, port] of box.aiInputs) {
    el('path', { class: 'port ai', d: `M${port.x} ${port.y + 8}l6 -8l-6 -8l-6 8Z` }, group);
    text(group, { class: 'port-label', x: port.x, y: port.y + 22, 'text-anchor': 'middle' }, portLabel(type));
  }
  if (box.aiOutput) el('path', { class: 'port ai', d: `M${box.aiOutput.x} ${box.aiOutput.y - 8}l6 8l-6 8l-6 -8Z` }, group);

  const typeName = node.disabled ? `Deactivated · ${look.name}` : look.name;
  if (box.shape === 'root') {
    text(group, { class: 'name', x: ix + size + 14, y: y + height / 2 - 2 }, clip(node.name, 20));
    text(group, { class: 'type', x: ix + size + 14, y: y + height / 2 + 14 }, clip(typeName, 24));
  } else {
    text(group, { class: 'name', x: x + width / 2, y: y + height + 18, 'text-anchor': 'middle' }, clip(node.name, 28));
    text(group, { class: 'type', x: x + width / 2, y: y + height + 33, 'text-anchor': 'middle' }, clip(typeName, 32));
  }

  if (severity) {
    const badge = el('g', { class: `finding-badge ${severity}` }, group);
    el('circle', { cx: x + width - 4, cy: y + 4, r: 11 }, badge);
    text(badge, { x: x + width - 4, y: y + 8.5, 'text-anchor': 'middle' }, String(findings.length));
  }
  if (run) {
    const status = el('g', { class: `run-badge ${run.status}` }, group);
    el('circle', { cx: x + 4, cy: y + 4, r: 11 }, status);
    text(status, { x: x + 4, y: y + 8.5, 'text-anchor': 'middle' }, run.status === 'error' ? '!' : run.status === 'success' ? '✓' : '…');
  }
  if (mark) text(group, { class: `mark ${mark}`, x: x + width / 2, y: y - 8, 'text-anchor': 'middle' }, mark);
}

/** The port's words, as n8n names its AI inputs ("ai_languageModel" → "Model"). */
function portLabel(type: string): string {
  const words: Record<string, string> = {
    ai_languageModel: 'Model',
    ai_memory: 'Memory',
    ai_tool: 'Tool',
    ai_outputParser: 'Output Parser',
    ai_embedding: 'Embedding',
    ai_vectorStore: 'Vector Store',
    ai_document: 'Document',
    ai_textSplitter: 'Text Splitter',
    ai_retriever: 'Retriever',
    ai_reranker: 'Reranker',
  };
  return own(words, type) ?? type.replace(/^ai_/, '');
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('') || '?';
