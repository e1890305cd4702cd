/**
 * Workflow templates: public workflows whose licence lets them be shared, collected at build time
 * (scripts/catalog/templates), stored in KV under the catalog version, served by search_templates and
 * get_template. These are the shapes at each step: collected, validated, stored.
 */
import type { NodeSpec } from '../catalog/nodeSpec';
import { categoriesOf, type TemplateCategory } from './categories';

/** n8n's sticky note: text on the canvas, not a step of the workflow. */
export const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** Where a template comes from, and on what terms it may be shared. */
interface TemplateSource {
  /** owner/name on GitHub. */
  repo: string;
  /** The commit it was read at. */
  commit: string;
  path: string;
  /** The file on GitHub at that commit. */
  link: string;
  /** SPDX identifier of the licence it is shared under. */
  licence: string;
  /** Who added it to the repository (the author of the commit that did), as the repository records it. */
  author: string;
}

/**
 * The workflow as create_workflow takes it: nodes, connections and settings, without pinned data and
 * without credentials (each user attaches their own: see CredentialNeed).
 */
export interface TemplateWorkflow {
  name: string;
  nodes: Record<string, unknown>[];
  connections: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/** The credential types a node of the template was written with: the user attaches one of their own. */
export interface CredentialNeed {
  node: string;
  types: string[];
}

/** A template as the committed data file holds it (scripts/catalog/templates/templates.json.gz). */
export interface CollectedTemplate {
  /** Stable: a short hash of the repository and path. */
  id: string;
  name: string;
  /** What its sticky notes say, or its collection says of it; null when neither says anything. */
  description: string | null;
  source: TemplateSource;
  workflow: TemplateWorkflow;
  credentials: CredentialNeed[];
}

/** What validate_workflow says of a template against the catalog it is served with. */
export interface ValidationSummary {
  valid: boolean;
  errors: number;
  warnings: number;
  /** The first few messages, errors first, each with the node it is about. */
  first: string[];
}

/** A change autofix_workflow is sure of, made to a template before it is served. */
export interface TemplateFix {
  kind: string;
  node: string | null;
  path?: string;
  /** What changed, from what to what. */
  description: string;
}

/**
 * A collected template as the catalog build serves it: its workflow with the sure fixes made (listed
 * in `fixes`), and what validate_workflow finds in that workflow.
 */
export interface ValidatedTemplate extends CollectedTemplate {
  validation: ValidationSummary;
  /** The fixes made to the workflow as its author wrote it (at `source.link`); none when it needed none. */
  fixes: TemplateFix[];
  /** What validate_workflow found in the workflow as its author wrote it, when fixes changed it. */
  unfixed?: Omit<ValidationSummary, 'first'>;
}

/** What KV holds per template, and get_template answers. */
export interface TemplateRecord extends ValidatedTemplate {
  /** The node types it uses (sticky notes left out), sorted. */
  node_types: string[];
  categories: TemplateCategory[];
}

/** The node types a workflow uses, sticky notes left out, sorted. */
export const nodeTypesOf = (template: Pick<CollectedTemplate, 'workflow'>): string[] =>
  [...new Set(template.workflow.nodes.map((n) => n.type).filter((t): t is string => typeof t === 'string' && t !== STICKY_NOTE))].sort();

/** The text of the workflow's sticky notes. */
export function stickyNotes(template: Pick<CollectedTemplate, 'workflow'>): string[] {
  return template.workflow.nodes.flatMap((node) => {
    const content = node.type === STICKY_NOTE ? (node.parameters as { content?: unknown } | undefined)?.content : undefined;
    return typeof content === 'string' && content.trim() !== '' ? [content] : [];
  });
}

/** Each template with the node types it uses and its categories, read from the catalog's newest descriptions (`current`). */
export function templateRecords(templates: ValidatedTemplate[], current: NodeSpec[]): TemplateRecord[] {
  const specs = new Map(current.map((s) => [s.subtype, s]));
  return templates.map((template) => {
    const node_types = nodeTypesOf(template);
    const nodes = node_types.map((type) => ({ type, categories: specs.get(type)?.categories ?? [] }));
    return { ...template, node_types, categories: categoriesOf(nodes, `${template.name} ${template.description ?? ''}`) };
  });
}
