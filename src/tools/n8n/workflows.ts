import { z } from 'zod';
import { Catalog } from '../../catalog/catalog';
import type { Env } from '../../env';
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { isN8nId, n8nId } from '../../n8n/ids';
import { workflowBody } from '../../n8n/workflowBody';
import { workflowOverLimit } from '../../workflows/limits';
import { catalogForNodes } from '../../workflows/prefetch';
import { CALLED_NOT_ACTIVATED, calledOnly, calledWorkflowIds } from '../../workflows/subWorkflows';
import type { ValidationResult } from '../../workflows/findings';
import type { NodeCatalog } from '../../workflows/nodeCatalog';
import { validateWorkflow } from '../../workflows/validateWorkflow';
import { refusal, ToolError } from '../tool';
import { withInstance } from '../validation/catalogView';
import { CONNECTIONS_SHAPE, NamedObject } from '../validation/schemas';
import { withinLimits } from '../validation/withinLimits';
import type { Principal } from '../../principal';
import { isPlainObject } from '../../workflows/values';
import { CREATES, DELETES, n8nTool, page, paging, READS, REPLACES, TOGGLES, type Page } from './n8nTool';
import { historyFor } from '../../history/history';
import { changeWorkflow, keepVersion, previousVersion, refuseIfNotFrom } from './safeChange';
import { publishingOf } from './publishing';
import { projectFor, workflowFor } from './userData';
import { workflowPath, type Workflow } from './workflowApi';
import { nodeNames, withNodes, workflowOutline } from './workflowParts';
import { messageOf } from './runWithCleanUp';

/** What a listing shows of a workflow: enough to pick one, not its whole graph. */
const summary = (w: Workflow) => ({
  id: w.id,
  name: w.name,
  active: w.active,
  ...(w.isArchived ? { isArchived: true } : {}),
  updatedAt: w.updatedAt,
  nodes: w.nodes?.length ?? 0,
  tags: w.tags?.map((t) => t.name) ?? [],
});

/** A workflow in a listing: its summary, and a flag when the version n8n runs is not the saved one. */
const listed = (w: Workflow) => ({ ...summary(w), ...(publishingOf(w).draft ? { draft: true } : {}) });

/** Projects a listing names beyond their ids: n8n lists each workflow's project by id only. */
const MAX_PROJECTS_NAMED = 10;

/** The id of the project that owns a workflow, as n8n lists it (`shared`, role `workflow:owner`). */
function ownerProjectId(w: Workflow): string | undefined {
  const owner = Array.isArray(w.shared) ? w.shared.find((s) => isPlainObject(s) && s.role === 'workflow:owner') : undefined;
  return isPlainObject(owner) && typeof owner.projectId === 'string' ? owner.projectId : undefined;
}

/**
 * The projects that own the listed workflows (the first MAX_PROJECTS_NAMED), by id, as this caller may
 * see them: n8n's listing names each by its id only, and its project list needs a licence n8n's
 * community edition lacks, so one workflow of each project is read, whose answer embeds its project.
 * A read that fails leaves that project at its id.
 */
async function owningProjects(workflows: Workflow[], n8n: N8nClient, caller: Principal): Promise<Map<string, Record<string, unknown>>> {
  const firstOf = new Map<string, string>();
  for (const w of workflows) {
    const owner = ownerProjectId(w);
    if (owner !== undefined && !firstOf.has(owner) && firstOf.size < MAX_PROJECTS_NAMED) firstOf.set(owner, w.id);
  }
  const read = await Promise.all(
    [...firstOf].map(async ([projectId, workflowId]) => {
      const workflow = await n8n.get<Workflow>(workflowPath(workflowId)).catch(() => undefined);
      const share = Array.isArray(workflow?.shared) ? workflow.shared.find((s) => isPlainObject(s) && s.projectId === projectId) : undefined;
      const project = isPlainObject(share) && isPlainObject(share.project) ? projectFor(caller, share.project) : undefined;
      if (!project) return undefined;
      const { name, type } = project;
      return [projectId, { id: projectId, ...(typeof name === 'string' ? { name } : {}), ...(typeof type === 'string' ? { type } : {}) }] as const;
    }),
  );
  return new Map(read.filter((entry) => entry !== undefined));
}

/** What a change that would change nothing answers: nothing was sent to n8n, no version kept. */
const UNCHANGED = (state: string) => `It was ${state} already: nothing was changed, and no version was kept.`;

/** A workflow after a change: its summary and which version is saved and which runs. */
const described = (w: Workflow) => ({ ...summary(w), ...publishingOf(w) });

/** A workflow as get_workflow returns it; any other fields are passed along and filtered for n8n. */
const workflowInput = z
  .looseObject({
    name: z.string().min(1).describe('Workflow name'),
    nodes: z.array(z.looseObject({})).describe('Nodes: name, type, typeVersion, position, parameters, credentials…'),
    connections: NamedObject.describe(CONNECTIONS_SHAPE),
    settings: z
      .looseObject({})
      .optional()
      .describe(
        'Workflow settings, e.g. {"executionOrder": "v1"} (what n8n\'s editor sets on a new workflow: each branch runs to its end before the next), "timezone": "Europe/Berlin", "errorWorkflow": "<workflow id>"',
      ),
  })
  .describe('The workflow; what get_workflow returns is accepted as is, read-only fields are dropped');

const force = z.boolean().default(false).describe('Save even if validation finds errors');
const reason = z.string().max(500).optional().describe('Why: kept with the version this change replaces (list_workflow_versions)');

/** Switches a workflow on in its turn (src/tools/n8n/safeChange.ts); n8n's refusal of a sub-workflow says why. */
function activateWorkflow(ctx: Parameters<typeof changeWorkflow>[0], n8n: N8nClient, id: string, doing: string) {
  return changeWorkflow(ctx, n8n, id, 'activate', doing, { doing, setsActiveState: true }, ({ before, activate }) =>
    // n8n's refusal names no trigger; say why when the workflow is a sub-workflow.
    activate((error) =>
      error instanceof N8nApiError && calledOnly(before) ? new N8nApiError(error.status, `${error.message}. ${CALLED_NOT_ACTIVATED}`) : error,
    ),
  );
}

/** Sub-workflows read from n8n for their calls' inputs to be checked. */
const MAX_CALLED_WORKFLOWS = 10;

/**
 * The workflows this one's Execute Workflow nodes call by id, as n8n has them (the first
 * MAX_CALLED_WORKFLOWS): one the key cannot read, or that is not there, is left out (nothing to compare).
 */
async function calledWorkflows(workflow: unknown, n8n: N8nClient): Promise<Map<string, unknown>> {
  const ids = calledWorkflowIds(workflow).filter(isN8nId).slice(0, MAX_CALLED_WORKFLOWS);
  const read = await Promise.all(
    ids.map((id) =>
      n8n.get<Workflow>(workflowPath(id)).then(
        (w) => [id, w] as const,
        () => null,
      ),
    ),
  );
  return new Map(read.filter((r) => r !== null));
}

/**
 * A workflow judged before n8n sees it, as create_workflow judges it: past the workflow tools' limits
 * the call is refused (nothing can check it); else the findings, and the catalog view they were made
 * with. Null when no node catalog is loaded.
 */
export async function judged(workflow: Record<string, unknown>, env: Env, n8n: N8nClient): Promise<{ result: ValidationResult; catalog: NodeCatalog } | null> {
  withinLimits(workflowOverLimit(workflow), 'Nothing was sent to n8n.');
  const nodes = Array.isArray(workflow.nodes) ? workflow.nodes : [];
  const catalog = await withInstance(n8n.connection, catalogForNodes(new Catalog(env.SPECS), nodes));
  if (!catalog) return null;
  return { result: validateWorkflow(workflow, catalog, undefined, await calledWorkflows(workflow, n8n)), catalog };
}

/** What a workflow tool says when no catalog was there to judge by. */
export const NOT_VALIDATED = { validation: { skipped: 'no node catalog is loaded on this server' } };

/**
 * Validates a workflow before n8n sees it (judged): errors refuse the call (unless forced); otherwise
 * what goes beside the saved workflow's summary (the findings, if any).
 */
async function validated(workflow: Record<string, unknown>, force: boolean, env: Env, n8n: N8nClient) {
  const judgement = await judged(workflow, env, n8n);
  if (!judgement) return { alongside: NOT_VALIDATED };
  const { result } = judgement;
  if (!result.valid && !force) {
    return {
      refused: refusal({
        saved: false,
        reason: 'The workflow has errors: fix them (autofix_workflow fixes what it is sure of) and send it again, or pass force: true to save it anyway.',
        errors: result.errors,
        warnings: result.warnings,
      }),
    };
  }
  return { alongside: result.errors.length || result.warnings.length ? { validation: result } : {} };
}

export const WORKFLOW_TOOLS = [
  n8nTool({
    name: 'list_workflows',
    title: 'List workflows',
    description:
      'List the n8n workflows (id, name, active, node count, tags, and the project that owns each: its id and type, its name ' +
      'where n8n says it — a personal project is named after its owner, shown with the users:read scope), filtered by part ' +
      'of the name, tags, active state or project, a page at a time.',
    input: z.object({
      active: z.boolean().optional().describe('Only active (true) or inactive (false) workflows'),
      tags: z.string().optional().describe('Comma-separated tag names; workflows having all of them'),
      name: z
        .string()
        .optional()
        .describe('Workflows whose name contains this ("order" finds "New orders"; n8n ignores case on SQLite, its default database, not on Postgres)'),
      projectId: n8nId('project').optional().describe('Workflows of this project'),
      ...paging,
    }),
    annotations: READS,
    async run({ active, tags, name, projectId, limit, cursor }, n8n, ctx) {
      const query = { active, tags, name, projectId, limit, cursor, excludePinnedData: true };
      const listing = await n8n.get<Page<Workflow>>('/workflows', { query });
      const projects = await owningProjects(listing.data, n8n, ctx.caller);
      return page('workflows', listing, (w) => {
        const owner = ownerProjectId(w);
        return { ...listed(w), ...(owner === undefined ? {} : { project: projects.get(owner) ?? { id: owner } }) };
      });
    },
  }),
  n8nTool({
    name: 'get_workflow',
    title: 'Get a workflow',
    description:
      'Get one workflow whole: nodes, connections, settings. Change it and send it back with update_workflow. ' +
      'A workflow too large for one answer comes as an outline (each node with its size): read its nodes with nodes. ' +
      'What n8n says of its owners (their e-mail, names) needs the users:read scope too.',
    input: z.object({ id: n8nId('workflow'), nodes: nodeNames }),
    annotations: READS,
    view: true,
    tooLarge: {
      readTheRest: 'Read the nodes a few at a time with get_workflow and nodes (names).',
      smaller: (value, said) => workflowOutline(value as Workflow, said, 'get_workflow'),
    },
    async run({ id, nodes }, n8n, ctx) {
      const workflow = await n8n.get<Workflow>(workflowPath(id));
      const { draft } = publishingOf(workflow);
      const shown = { ...workflowFor(ctx.caller, workflow), ...(draft ? { draft } : {}) };
      return nodes ? withNodes(shown, nodes) : shown;
    },
  }),
  n8nTool({
    name: 'create_workflow',
    title: 'Create a workflow',
    description:
      'Create a workflow from name, nodes, connections and settings: inactive, or switched on at once with activate ' +
      '(as activate_workflow does). It is validated first (as validate_workflow does) and refused with the findings ' +
      'if it has errors, unless force is true.',
    input: z.object({
      workflow: workflowInput,
      activate: z
        .boolean()
        .default(false)
        .describe('Switch it on once created, so its webhooks answer at once; if n8n refuses, it is created inactive and the answer says why'),
      force,
      reason,
    }),
    annotations: CREATES,
    view: true,
    async run({ workflow, activate, force, reason }, n8n, ctx) {
      const checked = await validated(workflow, force, ctx.env, n8n);
      if ('refused' in checked) return checked.refused;
      const note = calledOnly(workflow) ? { note: CALLED_NOT_ACTIVATED } : {};
      const created = await n8n.post<Workflow>('/workflows', { body: workflowBody(workflow) });
      // Its first version is kept too; if it cannot be, the workflow is not left behind without one.
      await keepVersion(ctx, created, 'create', reason ?? 'create_workflow').catch(async (error: unknown) => {
        await n8n.delete(workflowPath(created.id)).catch(() => {});
        throw error;
      });
      if (!activate || calledOnly(workflow)) return { ...described(created), ...checked.alongside, ...note };
      // Created either way: a refused activation is said, not thrown, so the caller keeps the id.
      const activated = await activateWorkflow(ctx, n8n, created.id, 'create_workflow').then(
        ({ result }) => described(result),
        (error: unknown) => ({ ...described(created), activation_refused: `${messageOf(error)}. Fix it and call activate_workflow.` }),
      );
      return { ...activated, ...checked.alongside };
    },
  }),
  n8nTool({
    name: 'update_workflow',
    title: 'Update a workflow',
    description:
      'Replace a workflow with the one given: read it with get_workflow, change it, send the whole object back ' +
      '(edit_workflow changes it in steps instead). Fields n8n does not accept on update (id, active, tags, createdAt…) ' +
      'are dropped. Validated first and refused with the findings if it has errors, unless force is true.',
    input: z.object({ id: n8nId('workflow').optional().describe('The workflow id; defaults to workflow.id'), workflow: workflowInput, force, reason }),
    annotations: REPLACES,
    view: true,
    async run({ id, workflow, force, reason }, n8n, ctx) {
      const workflowId = id ?? (typeof workflow.id === 'string' ? workflow.id : undefined);
      if (!workflowId) throw new ToolError('id: which workflow to update (or a workflow with its id)');
      if (!isN8nId(workflowId)) throw new ToolError(`workflow.id: "${workflowId}" is not a workflow id (1 to 36 letters and digits, as n8n makes them)`);
      const checked = await validated(workflow, force, ctx.env, n8n);
      if ('refused' in checked) return checked.refused;
      const { result, kept } = await changeWorkflow(
        ctx,
        n8n,
        workflowId,
        'update',
        reason ?? 'update_workflow',
        { doing: 'update_workflow' },
        async (change) => {
          // A copy read before another change would undo it: refused, with what changed since.
          await refuseIfNotFrom(ctx, change.before, typeof workflow.versionId === 'string' ? workflow.versionId : undefined);
          return change.save(workflowBody(workflow));
        },
      );
      return { ...described(result), ...checked.alongside, ...previousVersion(kept) };
    },
  }),
  n8nTool({
    name: 'delete_workflow',
    title: 'Delete a workflow',
    description:
      "Delete a workflow from n8n. Its last version is kept in this server's history first: restore_workflow_version " + 'brings it back (under a new id).',
    input: z.object({ id: n8nId('workflow'), reason }),
    annotations: DELETES,
    async run({ id, reason }, n8n, ctx) {
      const {
        result: deleted,
        kept,
        before,
      } = await changeWorkflow(ctx, n8n, id, 'delete', reason ?? 'delete_workflow', { doing: 'delete_workflow' }, (change) => change.delete());
      // Its saved tests go with it; its versions stay (a restore brings it back).
      const tests = await (await historyFor(ctx)).deleteTests(id);
      return {
        deleted: true,
        id: deleted?.id ?? id,
        name: deleted?.name ?? before.name,
        keptVersion: kept?.version,
        ...(tests ? { testsDeleted: tests } : {}),
      };
    },
  }),
  n8nTool({
    name: 'activate_workflow',
    title: 'Activate a workflow',
    description:
      'Activate (publish) a workflow, so its triggers run its saved version. On an n8n with drafts (2.x) saving an ' +
      'active workflow may leave the published version running (answers then carry `draft`): activating it again ' +
      'publishes the saved one. The answer names both (versionId, liveVersionId). A workflow started only by "When ' +
      'Executed by Another Workflow" is called by other workflows (Execute Workflow node), not activated.',
    input: z.object({ id: n8nId('workflow') }),
    annotations: TOGGLES,
    async run({ id }, n8n, ctx) {
      const { result, kept } = await activateWorkflow(ctx, n8n, id, 'activate_workflow');
      return { ...described(result), ...(kept ? {} : { unchanged: UNCHANGED('active, running its saved version') }) };
    },
  }),
  n8nTool({
    name: 'deactivate_workflow',
    title: 'Deactivate a workflow',
    description: 'Deactivate a workflow, so its triggers stop.',
    input: z.object({ id: n8nId('workflow') }),
    annotations: TOGGLES,
    async run({ id }, n8n, ctx) {
      const options = { doing: 'deactivate_workflow', setsActiveState: true };
      const { result, kept } = await changeWorkflow(ctx, n8n, id, 'deactivate', 'deactivate_workflow', options, ({ deactivate }) => deactivate());
      return { ...described(result), ...(kept ? {} : { unchanged: UNCHANGED('inactive') }) };
    },
  }),
];
