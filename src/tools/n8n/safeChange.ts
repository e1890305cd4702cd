import { N8nApiError, n8nConnection, type N8nClient } from '../../n8n/client';
import { workflowBody } from '../../n8n/workflowBody';
import type { Change, VersionRecord } from '../../history/HistoryObject';
import { historyOf, retentionOf } from '../../history/history';
import { diffWorkflows } from '../../workflows/diff';
import { ToolError, type ToolContext } from '../tool';
import { liveVersionOf, publishingOf } from './publishing';
import { workflowPath, type Workflow } from './workflowApi';

/** A step of a change, named in the answer when n8n refuses it: `save`, `tags`, `activate`… */
export type Step = <R>(name: string, run: () => Promise<R>) => Promise<R>;

class StepFailed extends Error {
  constructor(
    readonly step: string,
    failure: unknown,
  ) {
    super(messageOf(failure), { cause: failure });
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** What putting a workflow back may take, after a step failed (its own time: the call's may be nearly up). */
const PUT_BACK_MS = 20_000;

/** The history of the n8n this deployment drives. */
export async function historyFor(ctx: ToolContext) {
  return historyOf(ctx.env, n8nConnection(ctx.env)!.apiBase);
}

/**
 * Keeps a version of a workflow in the history, as it is in n8n now, with who changes it and why. A
 * version that cannot be kept stops the change: nothing has been changed yet.
 */
export async function keepVersion(ctx: ToolContext, workflow: Workflow, change: Change, reason: string): Promise<VersionRecord> {
  const entry = {
    workflowId: workflow.id,
    name: workflow.name,
    versionId: workflow.versionId ?? null,
    active: workflow.active === true,
    nodes: workflow.nodes?.length ?? 0,
    by: ctx.caller.subject,
    change,
    reason,
  };
  const outcome = await (await historyFor(ctx)).keep(entry, JSON.stringify(workflow), retentionOf(ctx.env)).catch((error: unknown) => ({
    refused: `the history could not be written (${messageOf(error)})`,
  }));
  if ('kept' in outcome) return outcome.kept;
  throw new ToolError(
    `Workflow ${workflow.id} was not changed: ${outcome.refused}, and this server changes no workflow without keeping the version it replaces.`,
  );
}

/**
 * A change to a saved workflow that can be undone, all or nothing: the version it replaces is kept in
 * the history first, then `run` makes the change in named steps. When n8n refuses a step (the save, the
 * tags, the activation…), the workflow is put back as it was (its content, tags and active state, each
 * only where it differs now), the kept version is dropped (the change did not happen), and the error
 * names the step and n8n's reason. If putting it back fails too, the error says so and which version of
 * the history holds the workflow as it was.
 */
export async function changeWorkflow<T>(
  ctx: ToolContext,
  n8n: N8nClient,
  before: Workflow,
  change: Change,
  reason: string,
  run: (step: Step) => Promise<T>,
): Promise<{ result: T; kept: VersionRecord }> {
  const kept = await keepVersion(ctx, before, change, reason);
  const step: Step = (name, work) =>
    work().catch((error: unknown) => {
      throw new StepFailed(name, error);
    });
  try {
    return { result: await run(step), kept };
  } catch (error) {
    const failed = error instanceof StepFailed ? error : new StepFailed('the change', error);
    const putBack = await putBackAsItWas(n8n.withSignal(AbortSignal.timeout(PUT_BACK_MS)), before).then(
      () => null,
      (e: unknown) => messageOf(e),
    );
    if (putBack === null) {
      await (await historyFor(ctx)).discard(kept.version);
      throw new ToolError(`The ${failed.step} step failed: ${failed.message}. Workflow ${before.id} is as it was before this call.`);
    }
    throw new ToolError(
      `The ${failed.step} step failed: ${failed.message}. Putting workflow ${before.id} back failed too (${putBack}): ` +
        `version ${kept.version} of its history is the workflow as it was; restore it with restore_workflow_version.`,
    );
  }
}

/**
 * Makes n8n's copy of a workflow what `before` was, changing only what differs now: the saved content,
 * the tags, and the version n8n runs (none when it was inactive; on an n8n with drafts, the version that
 * was published, which need not be the saved one). n8n 2.x may refuse a save of an active workflow
 * (403, 409) and keep it as a draft all the same, so what counts is what n8n has afterwards: read back
 * and compared, and any difference left is an error naming it.
 */
async function putBackAsItWas(n8n: N8nClient, before: Workflow): Promise<void> {
  const path = workflowPath(before.id);
  const now = await n8n.get<Workflow>(path);
  const contentChanged = now.versionId !== before.versionId && !diffWorkflows(before, now).same;
  if (contentChanged) {
    await n8n.put(path, { body: workflowBody(before) }).catch((error: unknown) => {
      if (!(error instanceof N8nApiError && (error.status === 403 || error.status === 409))) throw error;
    });
  }
  const tagIds = (w: Workflow) => (w.tags ?? []).map((t) => t.id).sort();
  if (JSON.stringify(tagIds(now)) !== JSON.stringify(tagIds(before))) await n8n.put(`${path}/tags`, { body: tagIds(before).map((id) => ({ id })) });
  const wasLive = publishingOf(before).liveVersionId;
  // A save may have published (n8n 2.x): what runs is read again after one.
  const saved = contentChanged ? await n8n.get<Workflow>(path) : now;
  if (wasLive === null) {
    if (saved.active === true) await n8n.post(`${path}/deactivate`);
  } else if (!runsAsBefore(saved, before)) {
    await n8n.post(`${path}/activate`, { body: { versionId: wasLive } });
  }
  const after = await n8n.get<Workflow>(path);
  const left = [
    diffWorkflows(before, after).same ? '' : 'its content',
    JSON.stringify(tagIds(after)) === JSON.stringify(tagIds(before)) ? '' : 'its tags',
    (after.active === true) === (before.active === true) && (wasLive === null || runsAsBefore(after, before)) ? '' : 'the version n8n runs',
  ].filter(Boolean);
  if (left.length) throw new Error(`n8n's copy still differs in ${left.join(' and ')}`);
}

/** Whether n8n runs what it ran before: the same published version, or one with the same nodes and connections (n8n 1.x publishes every save anew). */
function runsAsBefore(now: Workflow, before: Workflow): boolean {
  if (now.active !== true) return false;
  if (publishingOf(now).liveVersionId === publishingOf(before).liveVersionId) return true;
  return diffWorkflows(liveVersionOf(before), liveVersionOf(now)).same;
}
