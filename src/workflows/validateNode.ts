/**
 * One node against the catalog: its type (with close matches when unknown), its typeVersion, its
 * parameters against that version's description, and the credentials it needs.
 */
import type { NodeSpec } from '../catalog/nodeSpec';
import { visibility } from './display';
import { Findings, type Finding, type ValidationResult } from './findings';
import type { NodeCatalog } from './nodeCatalog';
import { checkParameters, describe } from './parameters';
import { isPlainObject, withDefaults } from './values';

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
const N8N_PREFIXES = ['n8n-nodes-base.', '@n8n/n8n-nodes-langchain.'];

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
    out.error(name, 'missing_type_version', `"typeVersion" must be the node's version number (e.g. 1 or 2.1), not ${describe(raw.typeVersion)}.`, `${at}.typeVersion`);
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
      out.error(node.name, 'unknown_node_type', `Unknown node type "${node.type}".${hint}`, 'type');
    } else {
      out.warning(node.name, 'unknown_community_node', `"${node.type}" is not an n8n node this catalog knows (a community node?): its parameters and ports are not checked.${hint}`, 'type');
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
    out.warning(node.name, 'legacy_node', `${spec.display_name} v${node.typeVersion} exists in n8n 1.x but not in n8n 2: it runs only on n8n 1.x.`, 'typeVersion');
  }
  return spec;
}

/** Parameters and credentials of a node whose description is known. */
export function checkNode(node: WorkflowNode, spec: NodeSpec, out: Findings): void {
  const own = new Findings();
  checkParameters(spec, { name: node.name, nodeType: node.type, typeVersion: node.typeVersion, parameters: node.parameters }, own);
  const explained = isPlainObject(node.parameters) && own.errors.length > 0 ? defaultExplains(node, spec, own) : null;
  if (explained) out.errors.push(explained);
  else out.errors.push(...own.errors);
  out.warnings.push(...own.warnings);
  if (servesWebhook(spec) && (typeof node.webhookId !== 'string' || node.webhookId === '')) {
    out.warning(node.name, 'missing_webhook_id', `${spec.display_name} gets a webhook URL from its "webhookId": give the node one (a new UUID, unique to it).`, 'webhookId');
  }
  if (!isPlainObject(node.parameters)) return;
  const identity = { typeVersion: node.typeVersion, nodeType: node.type };
  const values = withDefaults(spec.parameters, node.parameters, identity);
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
function defaultExplains(node: WorkflowNode, spec: NodeSpec, own: Findings): Finding | null {
  // Only settings that do not fit the default are evidence that another choice was meant.
  const misfits = own.warnings.some((w) => w.code === 'parameter_not_applicable') || own.errors.some((e) => e.code === 'invalid_option');
  if (!misfits) return null;
  const deciding = new Set(spec.parameters.flatMap((p) => Object.keys(p.display_options?.show ?? {})));
  for (const p of spec.parameters) {
    if (p.type !== 'enum' || p.dynamic_options || !deciding.has(p.name) || Object.hasOwn(node.parameters, p.name)) continue;
    for (const alternative of (p.enum_values ?? []).slice(0, 40)) {
      if (alternative === p.default_value) continue;
      const trial = new Findings();
      checkParameters(spec, { name: node.name, nodeType: node.type, typeVersion: node.typeVersion, parameters: { ...node.parameters, [p.name]: alternative } }, trial);
      const fits = trial.errors.length === 0 && trial.warnings.filter((w) => w.code === 'parameter_not_applicable').length === 0;
      if (!fits) continue;
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

/** Type names close to a wrong one: same name in other case or package, or a few edits away. */
export function closeMatches(type: string, known: readonly string[], max = 3): string[] {
  const short = (t: string) => t.slice(t.lastIndexOf('.') + 1).toLowerCase();
  const wanted = short(type);
  const scored = known
    .map((t) => ({ t, d: t.toLowerCase() === type.toLowerCase() || short(t) === wanted ? 0 : editDistance(short(t), wanted, 3) }))
    .filter((x) => x.d <= Math.min(3, Math.max(1, Math.floor(wanted.length / 4))))
    .sort((a, b) => a.d - b.d || a.t.localeCompare(b.t));
  return scored.slice(0, max).map((x) => x.t);
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
