import { autofix } from '../workflows/autofix';
import type { Finding } from '../workflows/findings';
import type { NodeCatalog } from '../workflows/nodeCatalog';
import { validateWorkflow } from '../workflows/validateWorkflow';
import type { CollectedTemplate, TemplateFix, TemplateWorkflow, ValidatedTemplate, ValidationSummary } from './template';

/** Messages a summary quotes: enough to see what is wrong, get_template's caller validates for the rest. */
const FIRST = 3;

/**
 * What validate_workflow says of a template's workflow against `catalog`, in short. A template's
 * credentials are taken out for each user to attach their own (CollectedTemplate.credentials lists
 * them): the validator's "missing credential" for those nodes is that list again, not a finding.
 */
export function summariseValidation(template: Pick<CollectedTemplate, 'workflow' | 'credentials'>, catalog: NodeCatalog): ValidationSummary {
  const result = validateWorkflow(template.workflow, catalog);
  const attached = new Set(template.credentials.map((c) => c.node));
  const counted = (f: Finding) => !(f.code === 'missing_credentials' && f.node !== null && attached.has(f.node));
  const errors = result.errors.filter(counted);
  const warnings = result.warnings.filter(counted);
  return {
    valid: errors.length === 0 && (result.omitted?.errors ?? 0) === 0,
    errors: errors.length + (result.omitted?.errors ?? 0),
    warnings: warnings.length + (result.omitted?.warnings ?? 0),
    first: [...errors, ...warnings].slice(0, FIRST).map((f) => (f.node === null ? f.message : `${f.node}: ${f.message}`)),
  };
}

/**
 * Webhook ids for the webhook triggers a template lacks them on: derived from the template's id (12
 * hex digits) and a count, so each build makes the same ones and no two templates share one.
 */
function webhookIds(templateId: string): () => string {
  let made = 0;
  const hex = templateId.padEnd(12, '0').slice(0, 12);
  return () => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4000-8000-${(++made).toString(16).padStart(12, '0')}`;
}

/**
 * A template as it is served: autofix_workflow's sure (high-confidence) fixes made to its workflow
 * and listed, then validated against `catalog`; `unfixed` says what its workflow as written had.
 * Nothing uncertain is changed: a template keeps every fault a fix would have to guess at.
 */
export function servedTemplate(template: CollectedTemplate, catalog: NodeCatalog): ValidatedTemplate {
  const result = autofix(template.workflow, catalog, { newId: webhookIds(template.id) });
  if (result.applied === 0) return { ...template, validation: summariseValidation(template, catalog), fixes: [] };
  const fixed = { ...template, workflow: result.workflow as TemplateWorkflow };
  const { first: _first, ...unfixed } = summariseValidation(template, catalog);
  const fixes: TemplateFix[] = result.fixes.filter((f) => f.applied).map(({ applied: _applied, confidence: _confidence, ...fix }) => fix);
  return { ...fixed, validation: summariseValidation(fixed, catalog), fixes, unfixed };
}
