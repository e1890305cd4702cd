import { nodeLook } from './nodeLook';
import type { Scene } from './scene';
import type { ViewNode } from './workflow';

/**
 * The side panel for the node a person clicked: what it is, its findings, what the change did to it,
 * what the run did there (the items it got and put out, its error), and its parameters. All of it is
 * the workflow's or the answer's text, set as text.
 */

const MAX_JSON = 20_000;

function add<K extends keyof HTMLElementTagNameMap>(parent: HTMLElement, tag: K, content?: string, className?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (content !== undefined) element.textContent = content;
  if (className) element.className = className;
  parent.appendChild(element);
  return element;
}

function section(panel: HTMLElement, name: string, title: string): HTMLElement {
  const part = add(panel, 'section');
  part.dataset.section = name;
  add(part, 'h3', title);
  return part;
}

function json(parent: HTMLElement, value: unknown): void {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  add(parent, 'pre', text.length > MAX_JSON ? `${text.slice(0, MAX_JSON)}\n… (${text.length.toLocaleString('en-US')} characters, cut)` : text);
}

export function showNode(panel: HTMLElement, node: ViewNode, scene: Scene, onClose: () => void): void {
  panel.replaceChildren();
  panel.hidden = false;
  panel.dataset.node = node.name;
  const head = add(panel, 'header');
  add(head, 'h2', node.name);
  const close = add(head, 'button', '×', 'close');
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', onClose);
  add(
    panel,
    'p',
    `${nodeLook(node.type).name} · ${node.type}${node.typeVersion === undefined ? '' : ` v${node.typeVersion}`}${node.disabled ? ' · deactivated' : ''}`,
    'node-type',
  );
  const mark = scene.marks[node.name];
  if (mark) add(panel, 'p', `This node was ${mark}.`, `mark ${mark}`);
  if (node.notes) add(panel, 'p', node.notes, 'notes');

  const findings = scene.findings[node.name] ?? [];
  if (findings.length) {
    const part = section(panel, 'findings', `Findings (${findings.length})`);
    const list = add(part, 'ul');
    for (const finding of findings) {
      const item = add(list, 'li', undefined, finding.severity);
      add(item, 'strong', finding.severity);
      add(item, 'span', ` ${finding.message}`);
      if (finding.path) add(item, 'code', finding.path);
      if (finding.fix) add(item, 'p', `Fix: ${finding.fix}`, 'fix');
    }
  }

  const run = scene.runs[node.name];
  if (run) {
    const part = section(panel, 'run', 'In the run');
    add(
      part,
      'p',
      `${run.order === undefined ? '' : `Step ${run.order} of the run · `}${run.status} · ${run.items.length ? `put out ${run.items.map((n, i) => `${n} item${n === 1 ? '' : 's'}${run.items.length > 1 ? ` (output ${i})` : ''}`).join(', ')}` : 'put out no items'}`,
    );
    if (run.error) add(part, 'p', run.error, 'error');
    if (run.received !== undefined) {
      add(part, 'h4', 'Items it got');
      json(part, run.received);
    }
    if (run.output !== undefined) {
      add(part, 'h4', 'Items it put out');
      json(part, run.output);
    }
  }

  const parameters = section(panel, 'parameters', 'Parameters');
  if (Object.keys(node.parameters).length) json(parameters, node.parameters);
  else add(parameters, 'p', 'None set: every parameter has its default.');
}
