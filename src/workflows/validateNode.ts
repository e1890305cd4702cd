/**
 * One node against the catalog: its type (with close matches when unknown), its typeVersion, its
 * parameters against that version's description, and the credentials it needs.
 */
import type { NodeSpec } from '../catalog/nodeSpec';
import { visibility } from './display';
import { clip, describe, Findings, type Finding, type ValidationResult } from './findings';
import { checkInstanceVersion } from './instanceVersions';
import type { NodeCatalog } from './nodeCatalog';
import { checkParameters } from './parameters';
import { isPlainObject, nodeValues } from './values';

/** The node as a workflow holds it (n8n's INode), after its shape was checked. */
export interface WorkflowNode {
  id?: unknown;
  name: string;
  type: string;
  typeVersion: number;
  parameters: Record<string, unknown>;
  credentials?: unknown;
  disabled?: boolean;
  onError?: unknown;
  webhookId?: unknown;
}

/** Type-name prefixes of n8n's own packages: a type under them that the catalog lacks is an error. */
export const N8N_PREFIXES = ['n8n-nodes-base.', '@n8n/n8n-nodes-langchain.'];

/**
 * Reads a node out of untrusted JSON, or says why it cannot be read (null when it has no name or type
 * to report under).
 */
export function readNode(raw: unknown, at: string, out: Findings): WorkflowNode | null {
  if (!isPlainObject(raw)) {
    out.error(null, 'invalid_node', `${at} must be a node object, not ${describe(raw)}.`, at);
    return null;
  }
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
  if (name === null || typeof raw.type !== 'string' || raw.type === '') {
    out.error(name, 'invalid_node', `${at} needs a "name" and a "type" (e.g. "n8n-nodes-base.set").`, at);
    return null;
  }
  if (typeof raw.typeVersion !== 'number') {
    out.error(
      name,
      'missing_type_version',
      `"typeVersion" must be the node's version number (e.g. 1 or 2.1), not ${describe(raw.typeVersion)}.`,
      `${at}.typeVersion`,
    );
    return null;
  }
  return { ...raw, name, type: raw.type, typeVersion: raw.typeVersion, parameters: (raw.parameters ?? {}) as Record<string, unknown> };
}

/** The description that applies to the node, or null after saying why there is none. */
export function resolveSpec(node: WorkflowNode, catalog: NodeCatalog, out: Findings): NodeSpec | null {
  const newest = catalog.newest(node.type);
  if (!newest) {
    const near = closeMatches(node.type, catalog.typeNames());
    const hint = near.length ? ` Did you mean ${near.map((t) => `"${t}"`).join(' or ')}?` : '';
    if (N8N_PREFIXES.some((p) => node.type.startsWith(p)) || !node.type.includes('.')) {
      out.error(node.name, 'unknown_node_type', `Unknown node type "${clip(node.type)}".${hint}`, 'type');
    } else {
      out.warning(
        node.name,
        'unknown_community_node',
        `"${clip(node.type)}" is not an n8n node this catalog knows (a community node?): its parameters and ports are not checked.${hint}`,
        'type',
      );
    }
    return null;
  }
  const spec = catalog.describe(node.type, node.typeVersion);
  if (!spec) {
    const versions = newest.node_versions ?? [];
    out.error(
      node.name,
      'invalid_type_version',
      `${newest.display_name} has no typeVersion ${node.typeVersion}; it has ${versions.join(', ')} (newest ${versions.at(-1)}, n8n's default ${newest.default_version ?? versions.at(-1)}).`,
      'typeVersion',
    );
    return null;
  }
  if (spec.legacy) {
    out.warning(
      node.name,
      'legacy_node',
      `${spec.display_name} v${node.typeVersion} exists in n8n 1.x but not in n8n 2: it runs only on n8n 1.x.`,
      'typeVersion',
    );
  }
  if (catalog.instance) checkInstanceVersion(node, spec, catalog.instance, out);
  return spec;
}

/**
 * Other choices one validation tries for unset deciding parameters (defaultExplains): each trial checks
 * a node's parameters again, and a node may offer hundreds, so a workflow of such nodes could cost
 * seconds. Real workflows have a few nodes to explain; past this, errors are listed unexplained.
 */
export class Trials {
  constructor(private left = 1_000) {}

  take(): boolean {
    return this.left-- > 0;
  }
}

/** Parameters and credentials of a node whose description is known; `trials` shared by a workflow's nodes. */
export function checkNode(node: WorkflowNode, spec: NodeSpec, out: Findings, trials = new Trials(), values = nodeValues(spec.parameters, node)): void {
  const given = isPlainObject(node.parameters) ? values : undefined;
  const parameters = (into: Findings) =>
    checkParameters(spec, { name: node.name, nodeType: node.type, typeVersion: node.typeVersion, parameters: node.parameters }, into, given);
  const own = new Findings();
  parameters(own);
  const explained = isPlainObject(node.parameters) && own.errorCount > 0 ? defaultExplains(node, spec, own, trials) : null;
  if (explained) out.add(explained, 'error');
  else if (own.complete) out.addAll(own);
  // More than fit one answer: checked again straight into `out`, so that every finding passes by it.
  else parameters(out);
  if (servesWebhook(spec) && (typeof node.webhookId !== 'string' || node.webhookId === '')) {
    out.warning(
      node.name,
      'missing_webhook_id',
      `${spec.display_name} gets a webhook URL from its "webhookId": give the node one, a new UUID unique to it, as a key of the node beside "parameters" ({"name": …, "webhookId": "…", "parameters": {…}}; autofix_workflow sets one).`,
      'webhookId',
    );
  }
  if (!isPlainObject(node.parameters)) return;
  const identity = { typeVersion: node.typeVersion, nodeType: node.type };
  const has = isPlainObject(node.credentials) ? node.credentials : {};
  for (const credential of spec.credentials ?? []) {
    if (!credential.required || Object.hasOwn(has, credential.name)) continue;
    if (visibility(credential.display_options, { ...identity, values, root: values }) !== 'shown') continue;
    out.warning(
      node.name,
      'missing_credentials',
      `${spec.display_name} needs a "${credential.name}" credential: add "credentials": {"${credential.name}": {"id": "…", "name": "…"}} (one of your n8n credentials of that type).`,
      'credentials',
    );
  }
}

/**
 * A node's parameter errors that one unset deciding choice explains: with `resource` left to its
 * default, its settings fail, yet they all fit another resource. n8n has changed such defaults over
 * time, so the workflow was written for the old one: one finding that says which to set, not a
 * cascade of missing parameters.
 */
function defaultExplains(node: WorkflowNode, spec: NodeSpec, own: Findings, trials: Trials): Finding | null {
  // Only settings that do not fit the default are evidence that another choice was meant.
  if (!own.has('parameter_not_applicable') && !own.has('invalid_option')) return null;
  const deciding = new Set(spec.parameters.flatMap((p) => Object.keys(p.display_options?.show ?? {})));
  for (const p of spec.parameters) {
    if (p.type !== 'enum' || p.dynamic_options || !deciding.has(p.name) || Object.hasOwn(node.parameters, p.name)) continue;
    for (const alternative of (p.enum_values ?? []).slice(0, 40)) {
      if (alternative === p.default_value) continue;
      if (!trials.take()) return null;
      const trial = new Findings({ max: 0 });
      checkParameters(
        spec,
        { name: node.name, nodeType: node.type, typeVersion: node.typeVersion, parameters: { ...node.parameters, [p.name]: alternative } },
        trial,
      );
      if (trial.errorCount > 0 || trial.has('parameter_not_applicable')) continue;
      return {
        node: node.name,
        path: `parameters.${p.name}`,
        code: 'default_changed',
        message:
          `"${p.name}" is not set, so n8n uses its default ${JSON.stringify(p.default_value)}, and then: ${own.errors[0]!.message} ` +
          `The other settings are those of ${p.name} ${JSON.stringify(alternative)} (n8n's default was different when this node was written): set "${p.name}": ${JSON.stringify(alternative)}.`,
      };
    }
  }
  return null;
}

/**
 * A node whose webhook is what it is for (triggers, Wait, Form): it needs a webhookId. App nodes offer
 * one only for an operation or two (send and wait), and workflows written before those have none.
 */
export const servesWebhook = (spec: NodeSpec): boolean =>
  spec.has_webhooks === true && (spec.node_type === 'TRIGGER_NODE' || !spec.parameters.some((p) => p.name === 'operation'));

/** validate_node: one node, no workflow around it. */
export function validateNode(raw: unknown, catalog: NodeCatalog): ValidationResult {
  const out = new Findings();
  const node = readNode(isPlainObject(raw) && raw.name === undefined ? { ...raw, name: 'node' } : raw, 'node', out);
  if (node) {
    const spec = resolveSpec(node, catalog, out);
    if (spec) checkNode(node, spec, out);
  }
  return out.result();
}

interface TypeIndex {
  /** Full type names by their lower case, and by their short name (after the package) in lower case. */
  byLower: Map<string, string[]>;
  byShort: Map<string, string[]>;
  /** Short names with their type, by length: only names of about the same length can be a few edits away. */
  byLength: Map<number, { type: string; short: string }[]>;
}

const typeIndexes = new WeakMap<readonly string[], TypeIndex>();
const shortName = (t: string) => t.slice(t.lastIndexOf('.') + 1).toLowerCase();
const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => (map.get(key) ?? map.set(key, []).get(key)!).push(value);

function typeIndex(known: readonly string[]): TypeIndex {
  let index = typeIndexes.get(known);
  if (!index) {
    index = { byLower: new Map(), byShort: new Map(), byLength: new Map() };
    for (const type of known) {
      const short = shortName(type);
      push(index.byLower, type.toLowerCase(), type);
      push(index.byShort, short, type);
      push(index.byLength, short.length, { type, short });
    }
    typeIndexes.set(known, index);
  }
  return index;
}

/**
 * Type names close to a wrong one: same name in other case or package, or a few edits away (more for
 * a longer name). Compares only with names of about its length, so a long made-up type costs nothing.
 */
export function closeMatches(type: string, known: readonly string[], max = 3): string[] {
  const index = typeIndex(known);
  const wanted = shortName(type);
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 4)));
  const distance = new Map<string, number>();
  for (const t of [...(index.byLower.get(type.toLowerCase()) ?? []), ...(index.byShort.get(wanted) ?? [])]) distance.set(t, 0);
  for (let length = wanted.length - limit; length <= wanted.length + limit; length++) {
    for (const { type: t, short } of index.byLength.get(length) ?? []) {
      if (distance.has(t)) continue;
      const d = editDistance(short, wanted, limit);
      if (d <= limit) distance.set(t, d);
    }
  }
  return [...distance]
    .sort(([a, da], [b, db]) => da - db || a.localeCompare(b))
    .slice(0, max)
    .map(([t]) => t);
}

/**
 * Levenshtein distance, or limit + 1 once it must exceed `limit`. What the strings share at their
 * ends is left out, and only cells within `limit` of the diagonal are computed: O(length × limit).
 */
export function editDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return Math.min(Math.max(n, m), over);
  // Cells off the band hold `over`; the band moves one cell right per row.
  let previous = new Int32Array(m + 1).fill(over);
  let current = new Int32Array(m + 1).fill(over);
  for (let j = 0; j <= Math.min(m, limit); j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(m, i + limit);
    current[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let rowMin = current[lo - 1]!;
    const ca = a.charCodeAt(start + i - 1);
    for (let j = lo; j <= hi; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ca === b.charCodeAt(start + j - 1) ? 0 : 1));
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[m]!, over);
}
