import { dict } from '../lib/ownKeys';
import { connect, type Bridge, type ToolResult } from './bridge';
import { drawWorkflow } from './draw';
import { layOut, type Layout } from './layout';
import { showNode } from './panel';
import { answerOf, readCall, toolOf, withFetched } from './readCall';
import { emptyScene, type Fetch, type Scene } from './scene';
import { viewport, type Viewport } from './viewport';
import type { ViewWorkflow } from './workflow';

/**
 * The workflow view: waits for the host to hand it the call that opened it (its tool, arguments and
 * answer), reads what to show (./readCall.ts), fetches the workflow through the host when the answer
 * lacks it, and draws it. Actions are tool calls through the host: nothing here reaches n8n or this
 * server any other way.
 */

type Mode = 'after' | 'before' | 'side' | 'overlay';

const HEIGHT = 560;
const $ = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;

const svg = $<SVGSVGElement>('#canvas');
const defs = $<SVGDefsElement>('#canvas defs');
const world = $<SVGGElement>('#world');
const panel = $<HTMLElement>('#panel');
const title = $<HTMLElement>('#title');
const summary = $<HTMLElement>('#summary');
const status = $<HTMLElement>('#status');
const actions = $<HTMLElement>('#actions');
const modes = $<HTMLElement>('#modes');
const zoom = $<HTMLElement>('#zoom-level');
const notes = $<HTMLUListElement>('#notes');

/** Below this scale names, types, ports and icons cannot be read (13 px text is 3 px): they are hidden, so a large workflow draws and zooms as shapes. */
const READABLE = 0.25;
const view: Viewport = viewport(svg, world, (scale) => {
  zoom.textContent = `${Math.round(scale * 100)}%`;
  svg.classList.toggle('far', scale < READABLE);
});
/** The box around what is drawn, for fit. */
let drawn = { x: 0, y: 0, width: 0, height: 0 };
let bridge: Bridge | undefined;
let scene: Scene = emptyScene('Workflow');
let mode: Mode = 'after';
let args: Record<string, unknown> = {};
/** The n8n connection the call that opened the view acted on: its actions act on the same one. */
let instance: string | undefined;
/** The tools that act on no n8n, so take no `instance`. */
const WITHOUT_N8N = new Set(['validate_workflow', 'autofix_workflow', 'get_template']);

function say(message: string, kind: 'info' | 'error' = 'info'): void {
  status.textContent = message;
  status.dataset.kind = kind;
  status.hidden = message === '';
}

/** Everything drawn this time, with the box around it, for fit. */
function drawScene(): void {
  world.replaceChildren();
  panel.hidden = true;
  title.textContent = scene.title;
  summary.textContent = scene.summary;
  drawActions();
  drawNotes();
  // Measured while the canvas is empty (framing the drawing then forces no layout of it), once the
  // header holds what it will (its words and buttons set its height, and so the canvas's).
  const canvas = svg.getBoundingClientRect();
  modes.hidden = scene.before === undefined;
  for (const button of modes.querySelectorAll<HTMLButtonElement>('button')) button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
  const overlay = { findings: scene.findings, marks: scene.marks, runs: scene.runs };
  // Each version drawn, laid out once: `before` shows only what the change took out of it (findings, marks and
  // runs are the after's); `ghost` lies faint under the after; `label` names a side of side by side.
  const parts: { layout: Layout; nodes: number; dx: number; before: boolean; ghost?: true; label?: string }[] = [];
  const { workflow, before } = scene;
  const part = (version: ViewWorkflow) => ({ layout: layOut(version), nodes: version.nodes.length, dx: 0 });
  if (before && mode === 'before') parts.push({ ...part(before), before: true });
  else if (before && workflow && mode === 'side') {
    const [left, right] = [part(before), part(workflow)];
    const dx = left.layout.bounds.x + left.layout.bounds.width + 160 - right.layout.bounds.x;
    parts.push({ ...left, before: true, label: 'Before' }, { ...right, dx, before: false, label: 'After' });
  } else if (before && workflow && mode === 'overlay') parts.push({ ...part(before), before: true, ghost: true }, { ...part(workflow), before: false });
  else if (workflow) parts.push({ ...part(workflow), before: false });

  let box: { x: number; y: number; width: number; height: number } | undefined;
  for (const { layout, dx, before, ghost, label } of parts) {
    const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    group.setAttribute('transform', `translate(${dx} 0)`);
    group.setAttribute('class', ghost ? 'version ghost' : 'version');
    if (label) group.dataset.version = label.toLowerCase();
    world.appendChild(group);
    drawWorkflow(group, defs, layout, before ? { findings: dict(), marks: removedOnly(scene.marks), runs: dict() } : overlay);
    if (label) {
      const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      text.setAttribute('class', 'version-label');
      text.setAttribute('x', String(layout.bounds.x));
      text.setAttribute('y', String(layout.bounds.y - 30));
      text.textContent = label;
      group.appendChild(text);
    }
    const b = { ...layout.bounds, x: layout.bounds.x + dx };
    box = box
      ? {
          x: Math.min(box.x, b.x),
          y: Math.min(box.y, b.y),
          width: Math.max(box.x + box.width, b.x + b.width) - Math.min(box.x, b.x),
          height: Math.max(box.y + box.height, b.y + b.height) - Math.min(box.y, b.y),
        }
      : b;
  }
  document.body.dataset.drawn = String(parts.reduce((n, p) => n + p.nodes, 0));
  drawn = box ?? { x: 0, y: 0, width: 0, height: 0 };
  view.fit(drawn, canvas);
  if (scene.error) say(scene.error, 'error');
  else if (!workflow) say(scene.fetch?.some((read) => read.into === 'workflow') ? 'Reading the workflow…' : 'This answer holds no workflow to draw.');
  else say('');
}

const removedOnly = (marks: Scene['marks']): Scene['marks'] => dict(Object.entries(marks).filter(([, mark]) => mark === 'removed'));

/** Findings no node of the drawing can carry: the workflow's own, and those naming a node it does not have. */
function drawNotes(): void {
  const names = new Set((scene.workflow ?? scene.before)?.nodes.map((node) => node.name));
  const loose = Object.entries(scene.findings).flatMap(([node, findings]) =>
    node === '' || !names.has(node) ? findings.map((finding) => ({ node, finding })) : [],
  );
  notes.replaceChildren();
  notes.hidden = loose.length === 0;
  for (const { node, finding } of loose.slice(0, NOTES)) {
    const item = document.createElement('li');
    item.className = finding.severity;
    item.textContent = `${node ? `"${node}": ` : ''}${finding.message}${finding.fix ? ` (${finding.fix})` : ''}`;
    notes.appendChild(item);
  }
  if (loose.length > NOTES) {
    const more = document.createElement('li');
    more.textContent = `and ${loose.length - NOTES} more`;
    notes.appendChild(more);
  }
}

/** Workflow findings listed over the canvas, at most. */
const NOTES = 6;

function drawActions(): void {
  actions.replaceChildren();
  for (const action of scene.actions) {
    const button = document.createElement('button');
    button.textContent = action.label;
    button.dataset.action = action.tool;
    if (action.hint) button.title = action.hint;
    button.addEventListener('click', () => void act(action.tool, action.arguments, action.label));
    actions.appendChild(button);
  }
}

/** A person's request, as the tool call the host makes for them; its answer is then what the view shows. */
async function act(tool: string, given: Record<string, unknown>, label: string): Promise<void> {
  if (!bridge) return;
  // A chain through the tools that take no instance (check it, fix it, save the fixes) ends on the n8n it began on.
  const input = instance !== undefined && !WITHOUT_N8N.has(tool) && given.instance === undefined ? { ...given, instance } : given;
  say(`${label}…`);
  for (const button of actions.querySelectorAll('button')) button.disabled = true;
  try {
    const answer = await bridge.callTool(tool, input);
    show(tool, input, answer);
    if (!answer.isError) say(`${label}: done.`);
  } catch (error) {
    say(`${label}: ${error instanceof Error ? error.message : String(error)}`, 'error');
    for (const button of actions.querySelectorAll('button')) button.disabled = false;
  }
}

function show(tool: string, input: Record<string, unknown>, result: ToolResult): void {
  scene = readCall(tool, input, result);
  if (tool === 'get_workflow' && !result.isError) rememberRead(answerOf(result).json);
  scene.actions = scene.actions.filter(mayOffer);
  if (bridge && !bridge.callsTools) {
    // A host that passes no tool call on: the view shows what the answer holds, and offers nothing.
    scene = { ...scene, actions: [], summary: `${scene.summary} · this host lets the view make no calls`, ...(scene.fetch ? { fetch: [] } : {}) };
  }
  mode = scene.before ? 'overlay' : 'after';
  drawScene();
  for (const read of scene.fetch ?? []) void fetchInto(scene, read);
}

/** Saved workflows (id and versionId) whose whole this view read itself, with get_workflow. */
const readHere = new Set<string>();

function rememberRead(workflow: Record<string, unknown> | undefined): void {
  if (workflow && typeof workflow.id === 'string' && typeof workflow.versionId === 'string' && workflow.partial === undefined)
    readHere.add(`${workflow.id}@${workflow.versionId}`);
}

/**
 * Saving the sure fixes to a saved workflow fixes what n8n holds under its id, while the preview showed the
 * workflow the autofix call was given: offered only when that was the whole workflow this view read under
 * that id and version, so what is saved is what was shown.
 */
const mayOffer = (action: Scene['actions'][number]): boolean =>
  !(action.tool === 'edit_workflow' && action.arguments.autofix === true) ||
  readHere.has(`${String(action.arguments.id)}@${String(action.arguments.expectedVersionId)}`);

/** What the answer names but does not hold (an execution's workflow, the version a change replaced), read through the host. */
async function fetchInto(shown: Scene, read: Fetch): Promise<void> {
  if (!bridge) return;
  const answer = await bridge.callTool(read.tool, read.arguments).catch((error: unknown) => ({
    isError: true,
    content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
  }));
  // A later call's answer (an action's) replaced the scene meanwhile: this read is for one no longer shown.
  if (!sameCall(scene, shown)) return;
  scene = withFetched(scene, read.into, answer);
  if (read.into === 'before' && scene.before) mode = 'overlay';
  drawScene();
}

/** Scenes grow as their reads come in; one call's scenes keep their fetch list. */
const sameCall = (a: Scene, b: Scene) => a.fetch === b.fetch;

svg.addEventListener('click', (event) => {
  const target = (event.target as Element).closest<SVGGElement>('.node');
  const name = target?.dataset.name;
  const ghost = target?.closest('.ghost, [data-version="before"]');
  const workflow = ghost || mode === 'before' ? scene.before : scene.workflow;
  const node = name === undefined ? undefined : workflow?.nodes.find((n) => n.name === name);
  for (const selected of world.querySelectorAll('.node.selected')) selected.classList.remove('selected');
  if (!node || !target) return void (panel.hidden = true);
  target.classList.add('selected');
  showNode(panel, node, ghost || mode === 'before' ? { ...scene, findings: dict(), marks: removedOnly(scene.marks), runs: dict() } : scene, () => {
    panel.hidden = true;
    target.classList.remove('selected');
  });
  // The panel covers the canvas's right side: a node under it moves into the part left open.
  view.reveal(target.getBoundingClientRect(), panel.getBoundingClientRect().width);
});
svg.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.target as Element).closest('.node')) (event.target as Element).dispatchEvent(new MouseEvent('click', { bubbles: true }));
});
$('#fit').addEventListener('click', () => view.fit(drawn));
$('#zoom-in').addEventListener('click', () => view.zoomBy(1.25));
$('#zoom-out').addEventListener('click', () => view.zoomBy(0.8));
for (const button of modes.querySelectorAll<HTMLButtonElement>('button')) {
  button.addEventListener('click', () => {
    mode = button.dataset.mode as Mode;
    drawScene();
  });
}

function applyTheme(theme: string | undefined): void {
  document.documentElement.dataset.theme = theme === 'dark' ? 'dark' : 'light';
}

void connect({
  toolInput(input) {
    args = input;
    if (typeof input.instance === 'string') instance = input.instance;
  },
  toolResult(result) {
    show(bridge?.context.toolInfo?.tool?.name ?? toolOf(args, result), args, result);
  },
  toolCancelled(reason) {
    say(`The call was cancelled${reason ? `: ${reason}` : ''}.`, 'error');
  },
  contextChanged(context) {
    applyTheme(context.theme);
  },
})
  .then((connected) => {
    bridge = connected;
    applyTheme(connected.context.theme);
    connected.sizeChanged(HEIGHT);
  })
  .catch((error: unknown) => say(`The host did not answer: ${error instanceof Error ? error.message : String(error)}`, 'error'));
