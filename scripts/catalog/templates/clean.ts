/**
 * A public workflow made into a template: only what create_workflow takes and a user can run as their
 * own (no pinned data, no credentials: their types are listed for the user to attach theirs, no
 * settings that name another instance's workflows), its description as its author wrote it, and a
 * fingerprint that copies share.
 */
import { createHash } from 'node:crypto';
import { NODE_FIELDS as N8N_NODE_FIELDS, pick } from '../../../src/n8n/workflowBody.ts';
import { STICKY_NOTE, type CredentialNeed, type TemplateWorkflow } from '../../../src/templates/template.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A node's fields a template keeps: n8n's node schema less the author's credentials and telemetry tags (and anything unknown). */
const NODE_FIELDS = N8N_NODE_FIELDS.filter((field) => field !== 'credentials' && field !== 'customTelemetryTags');
/** Settings a template keeps: how it runs, nothing that names the author's instance (errorWorkflow, callerIds…). */
const SETTINGS_FIELDS = [
  'executionOrder',
  'timezone',
  'saveManualExecutions',
  'saveExecutionProgress',
  'saveDataErrorExecution',
  'saveDataSuccessExecution',
  'executionTimeout',
  'callerPolicy',
  'binaryMode',
];

/** Whether a JSON document is an n8n workflow: named nodes with types, and connections. */
export function isWorkflow(doc: unknown): doc is Json & { nodes: Json[]; connections: Json } {
  return (
    isObject(doc) &&
    Array.isArray(doc.nodes) &&
    doc.nodes.length > 0 &&
    doc.nodes.every((n) => isObject(n) && typeof n.type === 'string' && typeof n.name === 'string') &&
    isObject(doc.connections)
  );
}

/** The workflow as a template serves it. */
export function templateWorkflow(doc: Json & { nodes: Json[]; connections: Json }, name: string): TemplateWorkflow {
  const settings = isObject(doc.settings) ? pick(doc.settings, SETTINGS_FIELDS) : {};
  return {
    name,
    nodes: doc.nodes.map((node) => pick(node, NODE_FIELDS)),
    connections: doc.connections,
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
  };
}

/** The credential types each node was written with (what the user attaches their own of). */
export function credentialNeeds(doc: { nodes: Json[] }): CredentialNeed[] {
  return doc.nodes.flatMap((node) => {
    const types = isObject(node.credentials) ? Object.keys(node.credentials) : [];
    return types.length > 0 ? [{ node: node.name as string, types }] : [];
  });
}

/** Markdown as plain text: headings, emphasis, images and link targets dropped, whitespace collapsed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*#+\s*/gm, '')
    .replace(/[*_`~]{1,3}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Longest description a template keeps (search shows its start; sticky notes can be pages long). */
const DESCRIPTION_CHARS = 1_000;

/**
 * What the workflow says it does, in its author's words: its own description field, else its first
 * sticky note (the one n8n's editor shows top left: the smallest position); null when it has neither.
 */
export function describedAs(doc: Json & { nodes: Json[] }): string | null {
  if (typeof doc.description === 'string' && doc.description.trim() !== '') return plainText(doc.description).slice(0, DESCRIPTION_CHARS);
  const notes = doc.nodes
    .filter((n) => n.type === STICKY_NOTE && isObject(n.parameters) && typeof n.parameters.content === 'string' && n.parameters.content.trim() !== '')
    .map((n) => ({ text: plainText((n.parameters as { content: string }).content), at: Array.isArray(n.position) ? (n.position as number[]) : [0, 0] }))
    .filter((n) => n.text !== '')
    .sort((a, b) => a.at[0]! + a.at[1]! - (b.at[0]! + b.at[1]!));
  return notes.length > 0 ? notes[0]!.text.slice(0, DESCRIPTION_CHARS) : null;
}

/** JSON with object keys sorted, so equal values print alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * What copies of one workflow share: its nodes' types, versions and parameters, and how they are
 * connected, with node names, ids, positions and sticky notes left out (a copy renames and moves
 * nodes, and adds notes).
 */
export function fingerprint(workflow: TemplateWorkflow): string {
  const steps = workflow.nodes
    .filter((n) => n.type !== STICKY_NOTE)
    .map((n) => ({ name: n.name as string, shape: canonical([n.type, n.typeVersion ?? null, n.parameters ?? {}]) }))
    .sort((a, b) => (a.shape < b.shape ? -1 : a.shape > b.shape ? 1 : 0));
  const place = new Map(steps.map((s, i) => [s.name, i]));
  const edges: string[] = [];
  for (const [source, byType] of Object.entries(workflow.connections)) {
    if (!isObject(byType)) continue;
    for (const [type, outputs] of Object.entries(byType)) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((targets, output) => {
        for (const target of Array.isArray(targets) ? targets : []) {
          if (isObject(target)) edges.push(canonical([place.get(source) ?? -1, type, output, place.get(target.node as string) ?? -1, target.index ?? 0]));
        }
      });
    }
  }
  return createHash('sha256')
    .update(canonical([steps.map((s) => s.shape), edges.sort()]))
    .digest('hex');
}

/** A template's id: the first 12 hex digits of the SHA-256 of its repository and path (stable across commits). */
export const templateId = (repo: string, path: string): string => createHash('sha256').update(`${repo}/${path}`).digest('hex').slice(0, 12);
