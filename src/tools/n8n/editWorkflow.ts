import { z } from 'zod';
import type { N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { workflowBody } from '../../n8n/workflowBody';
import { autofix } from '../../workflows/autofix';
import { judgeEdit } from '../../workflows/editVerdict';
import { valueOverLimit, workflowOverLimit } from '../../workflows/limits';
import { applyOperations, OPERATION_TYPES, type Operation } from '../../workflows/operations';
import { refusal, ToolError } from '../tool';
import { catalogViewFor } from '../validation/catalogView';
import { withinLimits } from '../validation/withinLimits';
import { n8nTool, REPLACES, type N8nToolContext } from './n8nTool';
import { publishingOf } from './publishing';
import { allows } from '../../auth/scopes';
import { changeWorkflow, previousVersion, refuseIfNotFrom } from './safeChange';
import { failureLine, runSavedTests } from './storedTests';
import type { TestResult } from './testWorkflow';
import { missingTags } from './tags';
import { workflowPath, type Workflow } from './workflowApi';
import { NamedObject } from '../validation/schemas';

/** One operation: a flat object whose `type` says which other fields it reads (no oneOf: n8n's client drops it). */
const OperationInput = z.object({
  type: z.enum(OPERATION_TYPES),
  name: z.string().optional().describe('The node to act on (by name); updateName: the new workflow name'),
  node: NamedObject.optional().describe('addNode: {name, type, typeVersion, parameters, credentials?, position?}'),
  changes: NamedObject.optional().describe('updateNode: fields to set; "parameters" merge: objects key by key, lists replaced whole, null removes a key'),
  path: z
    .string()
    .optional()
    .describe('setParameter: a JSON Pointer into the node\'s parameters, e.g. "/conditions/conditions/0/rightValue" ("-" appends to a list)'),
  value: z.unknown().optional().describe('setParameter: the value to put at "path"; null removes it'),
  newName: z.string().optional().describe('renameNode: connections and expressions that name the node follow'),
  position: z.array(z.number()).optional().describe('moveNode: [x, y]'),
  source: z.string().optional().describe('Connections: the node the connection leaves'),
  target: z.string().optional().describe('addConnection/removeConnection: the node it enters'),
  from: z.string().optional().describe('rewireConnection: the target it goes to now'),
  to: z.string().optional().describe('rewireConnection: the target it should go to'),
  connectionType: z.string().optional().describe('main (default), ai_languageModel, ai_tool, ai_memory…'),
  sourceOutput: z.number().int().optional().describe('The output index (default 0)'),
  targetInput: z.number().int().optional().describe('The input index (default 0; Merge: 0, 1, …)'),
  branch: z.enum(['true', 'false']).optional().describe('IF: the true (0) or false (1) output'),
  case: z.number().int().optional().describe("Switch: the rule's output index"),
  settings: NamedObject.optional().describe('updateSettings: settings to set (merged)'),
  tag: z.string().optional().describe('addTag/removeTag: the tag name'),
});

export const editWorkflow = n8nTool({
  name: 'edit_workflow',
  title: 'Edit a workflow in steps',
  description:
    'Change a saved workflow with a list of operations, without sending all of it back: addNode, removeNode (with its ' +
    'connections), updateNode (parameters merged: objects key by key, a list replaced whole — the answer names each ' +
    'list replaced), setParameter (one value by JSON Pointer path, e.g. one entry of a list), renameNode (connections ' +
    'and expressions follow), moveNode, ' +
    'enableNode, disableNode, addConnection / removeConnection / rewireConnection (IF "branch": "true"|"false", Switch ' +
    '"case": n, AI "connectionType": "ai_languageModel"…), updateSettings, updateName, addTag, removeTag, activate, ' +
    'deactivate. All or nothing: the operations apply to a copy, the result is validated, and an operation that fails ' +
    'or an error it introduces saves nothing and says which operation and why; a step n8n refuses (save, tags, ' +
    'activation) puts the workflow back as it was. The version it replaces is kept (restore_workflow_version undoes ' +
    'the edit). runTests runs the saved tests after saving and puts the workflow back if one fails. validateOnly previews; autofix also makes the fixes autofix_workflow is sure of. A workflow changed ' +
    'in n8n since it was read is not overwritten.',
  input: z.object({
    id: n8nId('workflow'),
    operations: z.array(OperationInput).max(100).describe('Applied in order, 0 to 100 of them'),
    validateOnly: z.boolean().default(false).describe('Apply and validate, save nothing'),
    autofix: z.boolean().default(false).describe("Also make autofix_workflow's sure fixes before saving"),
    expectedVersionId: z.string().optional().describe('The versionId you read: refuse if the workflow has changed since'),
    reason: z.string().max(500).optional().describe('Why: kept with the version this edit replaces (list_workflow_versions)'),
    runTests: z
      .boolean()
      .default(false)
      .describe(
        "After saving, run the workflow's saved tests (save_workflow_test); if one fails, put the workflow back as it was. " +
          'Not run when the save is a draft n8n does not run (n8n with drafts): the answer says so',
      ),
  }),
  annotations: REPLACES,
  view: true,
  // Its tests run the workflow; arguments not at hand (kept apart, too large for a message) may ask for them.
  runsLong: (args) => args === undefined || args.runTests === true,
  async run({ id: workflowId, operations, validateOnly, autofix: fix, expectedVersionId, reason, runTests }, n8n, ctx) {
    const ops = operations as Operation[];
    withinLimits(valueOverLimit(ops, 'operations'), 'Nothing was changed.');
    if (validateOnly) {
      const read = await n8n.get<Workflow>(workflowPath(workflowId));
      await refuseIfNotFrom(ctx, read, expectedVersionId);
      const planned = await planEdit(read, ops, fix, ctx);
      if (!planned.plan) return planned.refusal;
      return { saved: false, preview: true, id: workflowId, ...planned.plan.summary, workflow: workflowBody(planned.plan.edited) };
    }
    const why = reason ?? `edit_workflow: ${ops.map((o) => o.type).join(', ') || 'no operations'}${fix ? ', autofix' : ''}`;
    const options = { doing: why, setsActiveState: ops.some((o) => o.type === 'activate' || o.type === 'deactivate') };
    const edit = () =>
      changeWorkflow(ctx, n8n, workflowId, 'edit', why, options, async (change) => {
        const read = change.before;
        await refuseIfNotFrom(ctx, read, expectedVersionId);
        const planned = await planEdit(read, ops, fix, ctx);
        if (!planned.plan) return { refusal: planned.refusal };
        const { edited, outcome, summary } = planned.plan;
        await refuseNewTags(n8n, ctx, outcome.tags.add);
        const saved = await change.save(workflowBody(edited));
        const tagsChanged = outcome.tags.add.length > 0 || outcome.tags.remove.length > 0;
        const tags = tagsChanged ? await change.setTags(tagNamesAfter(read, outcome.tags)) : undefined;
        // The activation's answer is the workflow as it runs now: which version is live after the edit.
        const toggled = outcome.activation ? await change[outcome.activation]() : undefined;
        const now = toggled ?? saved;
        // A draft is not what n8n runs: its tests would judge the published version, not this edit.
        const draft = publishingOf(now).draft;
        const tests = runTests
          ? draft
            ? { skipped: `${draft} The saved tests were not run.` }
            : await change.step('tests', () => passingTests(n8n, ctx, workflowId))
          : undefined;
        return {
          saved: {
            saved: true,
            id: workflowId,
            ...publishingOf(now),
            ...summary,
            ...(tags ? { tags } : {}),
            ...(tests ? { tests } : {}),
          },
        };
      });
    const { result, kept } = await edit();
    return result.saved ? { ...result.saved, ...previousVersion(kept) } : result.refusal;
  },
});

/**
 * The edit of a workflow as read: the operations applied to a copy, autofixed if asked, and judged;
 * a refusal (an operation that fails, errors the edit brings in) or the workflow to save with what
 * the answer says of it.
 */
async function planEdit(read: Workflow, ops: Operation[], fix: boolean, ctx: N8nToolContext) {
  withinLimits(workflowOverLimit(read, `Workflow ${read.id}`), 'Nothing was changed.');
  const outcome = applyOperations(read, ops);
  if (!outcome.ok) {
    throw new ToolError(`Operation ${outcome.index} (${outcome.operation.type}) failed: ${outcome.message}. Nothing was saved.`);
  }
  withinLimits(workflowOverLimit(outcome.workflow, 'The edited workflow'), 'Nothing was saved.');
  const catalog = await catalogViewFor(ctx.env, ctx.connection, [...(read.nodes ?? []), ...outcome.workflow.nodes]);
  const fixes = fix ? autofix(outcome.workflow, catalog) : undefined;
  const edited = (fixes?.workflow ?? outcome.workflow) as Workflow;
  const { after, introduced, culprit } = judgeEdit(read, ops, edited, catalog, fix);
  if (!introduced.valid) {
    return {
      plan: undefined,
      refusal: refusal({
        saved: false,
        reason: `The edit would leave errors the workflow did not have${culprit === null ? '' : `, from operation ${culprit} (${ops[culprit]!.type})`}. Nothing was saved.`,
        ...(culprit === null ? {} : { operation: { index: culprit, type: ops[culprit]!.type } }),
        errors: introduced.errors,
        ...(introduced.omitted ? { omitted: { errors: introduced.omitted.errors } } : {}),
      }),
    };
  }
  const summary = {
    operations: ops.length,
    ...(fixes ? { fixes: fixes.fixes.filter((f) => f.applied).map((f) => f.description) } : {}),
    valid: after.valid,
    errors: after.errors,
    warnings: after.warnings,
    ...(after.omitted ? { omitted: after.omitted } : {}),
    ...(outcome.replacedLists.length ? { replacedLists: outcome.replacedLists } : {}),
    ...(outcome.tags.add.length || outcome.tags.remove.length ? { tags: outcome.tags } : {}),
    ...(outcome.activation ? { activation: outcome.activation } : {}),
  };
  return { plan: { edited, outcome, summary }, refusal: undefined };
}

/** A tag the edit adds that n8n does not have yet is created, which needs tags:write: refused before anything is saved without it. */
async function refuseNewTags(n8n: N8nClient, ctx: N8nToolContext, added: readonly string[]): Promise<void> {
  if (added.length === 0 || allows(ctx.caller.scopes, 'tags:write')) return;
  const missing = await missingTags(n8n, added);
  if (missing.length) {
    throw new ToolError(
      `The tag${missing.length > 1 ? 's' : ''} ${missing.map((t) => `"${t}"`).join(', ')} ${missing.length > 1 ? 'do' : 'does'} not exist in n8n, and creating a tag needs the scope "tags:write", which this credential does not have. ` +
        'Nothing was changed: add a tag that exists (list_tags), or ask for tags:write.',
    );
  }
}

/** The workflow's saved tests, run; an error naming each that failed when any did (the edit is then put back). */
async function passingTests(n8n: N8nClient, ctx: N8nToolContext, workflowId: string): Promise<TestResult[]> {
  const { results } = await runSavedTests(n8n, ctx, workflowId);
  const failed = results.filter((r) => !r.passed);
  if (failed.length) throw new ToolError(`${failed.length} of ${results.length} saved tests failed: ${failed.map(failureLine).join('; ')}`);
  return results;
}

/** The tag names a workflow has after adding and removing some. */
function tagNamesAfter(read: Workflow, change: { add: string[]; remove: string[] }): string[] {
  const names = new Set((read.tags ?? []).map((t) => t.name));
  for (const t of change.add) names.add(t);
  for (const t of change.remove) names.delete(t);
  return [...names];
}
