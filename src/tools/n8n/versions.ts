import { z } from 'zod';
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { workflowBody } from '../../n8n/workflowBody';
import type { VersionRecord } from '../../history/HistoryObject';
import { diffWorkflows } from '../../workflows/diff';
import { ToolError } from '../tool';
import { DELETES, n8nTool, READS, REPLACES, type N8nToolContext } from './n8nTool';
import { allows } from '../../auth/scopes';
import { missingTags } from './tags';
import { workflowFor } from './userData';
import { publishingOf } from './publishing';
import { historyFor } from '../../history/history';
import { changeWorkflow, keepVersion, UNCHANGED } from './safeChange';
import { workflowPath, type Workflow } from './workflowApi';
import { nodeNames, withNodes, workflowOutline } from './workflowParts';

const version = z.number().int().min(1).describe('A version number, as list_workflow_versions gives it');
const limit = z.number().int().min(1).max(200).default(50).describe('At most this many, newest first');

/** A version as a listing shows it: no workflow, just what tells it apart. */
const listed = ({ workflowId, ...record }: VersionRecord) => record;

/**
 * What n8n itself keeps of a workflow's versions, where its API shows it (n8n 2.x: the published version
 * and its publish events; no one's name, that is users:read's): listed beside this server's history.
 */
function n8nPublishing(workflow: Workflow | null): Record<string, unknown> {
  const published = workflow?.activeVersion as
    { versionId?: string; workflowPublishHistory?: { versionId?: string; event?: string; createdAt?: string }[] } | null | undefined;
  if (!workflow || !published?.versionId) return {};
  const events = (published.workflowPublishHistory ?? []).map(({ versionId, event, createdAt }) => ({ versionId, event, createdAt }));
  const { versionId, liveVersionId } = publishingOf(workflow);
  return { n8n: { versionId, liveVersionId, publishHistory: events } };
}

/** The workflow as n8n has it now, or null when it is not there (deleted). */
async function current(n8n: N8nClient, workflowId: string): Promise<Workflow | null> {
  try {
    return await n8n.get<Workflow>(workflowPath(workflowId));
  } catch (error) {
    if (error instanceof N8nApiError && error.status === 404) return null;
    throw error;
  }
}

/** A version of the history, or an error that says which versions there are. */
async function kept(ctx: N8nToolContext, workflowId: string, number: number): Promise<{ record: VersionRecord; workflow: Workflow }> {
  const store = await historyFor(ctx);
  const found = await store.get(workflowId, number);
  if (found) return { record: found.record, workflow: JSON.parse(found.workflow) as Workflow };
  const versions = (await store.list(workflowId, 10)).map((v) => v.version);
  throw new ToolError(
    `Workflow ${workflowId} has no version ${number} in this server's history${versions.length ? `; its newest are ${versions.join(', ')}` : ': this server has kept none of it'}. list_workflow_versions lists them.`,
  );
}

const which = z.union([version, z.literal('current')]);

export const VERSION_TOOLS = [
  n8nTool({
    name: 'list_workflow_versions',
    title: 'List versions of a workflow',
    description:
      'The versions this server kept of a workflow before it changed or deleted it, newest first: when, by whom, what ' +
      'the change was and why; beside them, what n8n 2.x keeps itself (the published version and its publish events). ' +
      'Without an id: every workflow with kept versions, deleted ones too (their last change is "delete"), to find one to restore.',
    input: z.object({ id: n8nId('workflow').optional().describe('The workflow; omit it to list the workflows'), limit }),
    annotations: READS,
    async run({ id, limit }, n8n, ctx) {
      const store = await historyFor(ctx);
      if (id === undefined) return { workflows: await store.workflows(limit) };
      const [versions, now] = await Promise.all([store.list(id, limit), current(n8n, id)]);
      return { id, versions: versions.map(listed), ...n8nPublishing(now) };
    },
  }),
  n8nTool({
    name: 'get_workflow_version',
    title: 'Get a version of a workflow',
    description:
      'One kept version of a workflow, whole (nodes, connections, settings), as it was before the change that replaced it. ' +
      'A version too large for one answer comes as an outline (each node with its size): read its nodes with nodes. ' +
      'What n8n says of its owners needs the users:read scope too.',
    input: z.object({ id: n8nId('workflow'), version, nodes: nodeNames }),
    annotations: READS,
    view: true,
    tooLarge: {
      readTheRest: 'Read the nodes a few at a time with get_workflow_version and nodes (names).',
      smaller: (value, said) => {
        const { version, workflow } = value as { version: unknown; workflow: Workflow };
        return { version, workflow: workflowOutline(workflow, said, 'get_workflow_version') };
      },
    },
    async run({ id, version, nodes }, _n8n, ctx) {
      const { record, workflow } = await kept(ctx, id, version);
      // What n8n says of the workflow's owners stays behind users:read, as get_workflow's does.
      const shown = workflowFor(ctx.caller, workflow);
      return { version: listed(record), workflow: nodes ? withNodes(shown, nodes) : shown };
    },
  }),
  n8nTool({
    name: 'diff_workflow_versions',
    title: 'Compare two versions of a workflow',
    description:
      'What changed between two versions of a workflow (kept versions, or "current" for n8n\'s copy now): nodes added, ' +
      'removed and changed (their fields, and their parameters as JSON Pointers), connections added and removed, name and settings.',
    input: z.object({
      id: n8nId('workflow'),
      from: which.describe('The older version, or "current"'),
      to: which.default('current').describe('The newer version, or "current" (default)'),
    }),
    annotations: READS,
    view: true,
    tooLarge: { readTheRest: 'Compare the nodes that changed a few at a time: get_workflow_version and get_workflow read chosen nodes (nodes).' },
    async run({ id, from, to }, n8n, ctx) {
      const read = async (v: number | 'current') => {
        if (v !== 'current') return (await kept(ctx, id, v)).workflow;
        const now = await current(n8n, id);
        if (!now) throw new ToolError(`Workflow ${id} is not in n8n any more (deleted): compare two kept versions instead.`);
        return now;
      };
      const [a, b] = await Promise.all([read(from), read(to)]);
      return { id, from, to, ...diffWorkflows(a, b) };
    },
  }),
  n8nTool({
    name: 'restore_workflow_version',
    title: 'Restore a version of a workflow',
    description:
      'Put a kept version of a workflow back in n8n: its nodes, connections, settings, name and tags (the active state ' +
      'stays as it is now). The version it replaces is kept first, so a restore can be undone. A workflow deleted from ' +
      'n8n is created again from the version, under a new id (n8n gives ids), which the answer names.',
    input: z.object({ id: n8nId('workflow'), version, reason: z.string().max(500).optional().describe('Why: kept with the version this replaces') }),
    annotations: REPLACES,
    view: true,
    async run({ id, version, reason }, n8n, ctx) {
      const { workflow } = await kept(ctx, id, version);
      const why = reason ?? `restore_workflow_version: version ${version}`;
      const now = await current(n8n, id);
      if (!now) {
        const created = await n8n.post<Workflow>('/workflows', { body: workflowBody(workflow) });
        const record = await keepVersion(ctx, created, 'create', `${why}, of deleted workflow ${id}`).catch(async (error: unknown) => {
          await n8n.delete(workflowPath(created.id)).catch(() => {});
          throw error;
        });
        return {
          restored: true,
          id: created.id,
          from: { id, version },
          note: `Workflow ${id} was deleted: version ${version} is now workflow ${created.id} (inactive).`,
          kept: record.version,
        };
      }
      const { result, kept: before } = await changeWorkflow(ctx, n8n, id, 'restore', why, { doing: why }, async (change) => {
        // Tags deleted since are created again only by a caller who may create tags; the others are left out, and said.
        const names = (workflow.tags ?? []).map((t) => t.name);
        const missing = allows(ctx.caller.scopes, 'tags:write') ? [] : await missingTags(n8n, names);
        const saved = await change.save(workflowBody(workflow));
        await change.setTags(names.filter((n) => !missing.includes(n)));
        return { saved, missing };
      });
      const notRestored = result.missing.length
        ? { tagsNotRestored: `${result.missing.map((t) => `"${t}"`).join(', ')}: deleted from n8n since, and creating a tag needs the scope "tags:write"` }
        : {};
      return {
        restored: true,
        id,
        version,
        active: result.saved.active,
        ...publishingOf(result.saved),
        ...(before ? { kept: before.version } : { unchanged: UNCHANGED }),
        ...notRestored,
      };
    },
  }),
  n8nTool({
    name: 'prune_workflow_versions',
    title: 'Prune your versions of a workflow',
    description:
      "Delete the versions of a workflow that were kept for this caller's own changes, to make room in the history (each " +
      'caller may keep HISTORY_CALLER_MB of versions; an error that names this tool says which workflows take the most). ' +
      "Other callers' versions stay: they undo their changes with them. The workflow in n8n is not touched.",
    input: z.object({ id: n8nId('workflow') }),
    annotations: DELETES,
    async run({ id }, _n8n, ctx) {
      const { deleted, bytes } = await (await historyFor(ctx)).pruneVersions(id, ctx.caller.subject);
      return { id, deleted, freedBytes: bytes };
    },
  }),
];
