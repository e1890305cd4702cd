/**
 * What an edit does to a workflow's errors (edit_workflow): the edited workflow's validation, the
 * errors in it that the workflow as read did not have, and an operation that brought them in. Errors
 * are told apart by findingKey, and all of them are compared, however few an answer lists. Pure.
 */
import { findingKey, Findings, type Finding, type Severity, type ValidationResult } from './findings';
import type { NodeCatalog } from './nodeCatalog';
import { applyOperations, type Operation } from './operations';
import { validateWorkflow } from './validateWorkflow';

export interface EditVerdict {
  after: ValidationResult;
  /** The edited workflow's errors the workflow as read did not have (as capped as any findings). */
  introduced: ValidationResult;
  /** An operation after which one of the new errors is there, and before which none; null without new errors, or when the operations alone bring none (autofix did). */
  culprit: number | null;
}

/** `edited` is `read` with `operations` applied, and autofix's sure fixes if `autofixed`. */
export function judgeEdit(read: unknown, operations: Operation[], edited: unknown, catalog: NodeCatalog, autofixed = false): EditVerdict {
  const had = errorKeys(read, catalog);
  const introduced = new Findings();
  const added = new Set<string>();
  const observe = (f: Finding, severity: Severity) => {
    if (severity !== 'error' || had.has(findingKey(f))) return;
    added.add(findingKey(f));
    introduced.add(f, 'error');
  };
  const after = validateWorkflow(edited, catalog, new Findings({ observe }));
  // Without autofix, the operations alone brought the new errors in: no need to check that again.
  const culprit = added.size > 0 ? firstBringing(read, operations, added, catalog, !autofixed) : null;
  return { after, introduced: introduced.result(), culprit };
}

/** The keys of every error a workflow has. */
function errorKeys(workflow: unknown, catalog: NodeCatalog): Set<string> {
  const keys = new Set<string>();
  validateWorkflow(workflow, catalog, new Findings({ max: 0, observe: (f, severity) => severity === 'error' && keys.add(findingKey(f)) }));
  return keys;
}

/**
 * An operation that brings in one of the errors `wanted` (by key): found by halving, so a hundred
 * operations cost seven validations, not a hundred.
 */
function firstBringing(read: unknown, operations: Operation[], wanted: Set<string>, catalog: NodeCatalog, allBring: boolean): number | null {
  const bringsIn = (k: number) => {
    const partial = applyOperations(read as Record<string, unknown>, operations.slice(0, k));
    if (!partial.ok) return false;
    let found = false;
    validateWorkflow(
      partial.workflow,
      catalog,
      new Findings({ max: 0, observe: (f, severity) => (found ||= severity === 'error' && wanted.has(findingKey(f))) }),
    );
    return found;
  };
  if (!allBring && !bringsIn(operations.length)) return null;
  // The first `clean` operations leave none of them, the first `dirty` some.
  let [clean, dirty] = [0, operations.length];
  while (dirty - clean > 1) {
    const middle = (clean + dirty) >> 1;
    if (bringsIn(middle)) dirty = middle;
    else clean = middle;
  }
  return dirty - 1;
}
