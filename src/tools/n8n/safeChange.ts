import { N8nApiError, type N8nClient } from '../../n8n/client';
import { workflowBody } from '../../n8n/workflowBody';
import type { N8nToolContext } from './n8nTool';
import type { Change, VersionRecord } from '../../history/HistoryObject';
import { limitsOf } from '../../history/history';
import { diffWorkflows, type WorkflowDiff } from '../../workflows/diff';
import { ToolError } from '../tool';
import { historyFor } from '../../history/history';
import { liveVersionOf, publishingOf } from './publishing';
import { setWorkflowTags } from './tags';
import { inTurn } from './turns';
import { workflowPath, type Workflow } from './workflowApi';

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

/**
 * Keeps a version of a workflow in the history, as it is in n8n now, with who changes it and why. A
 * version that cannot be kept stops the change: nothing has been changed yet.
 */
export async function keepVersion(ctx: N8nToolContext, workflow: Workflow, change: Change, reason: string): Promise<VersionRecord> {
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
  const outcome = await (await historyFor(ctx)).keep(entry, JSON.stringify(workflow), limitsOf(ctx.env)).catch((error: unknown) => ({
    refused: `the history could not be written (${messageOf(error)})`,
  }));
  if ('kept' in outcome) return outcome.kept;
  throw new ToolError(`Workflow ${workflow.id} was not changed: ${outcome.refused}. This server changes no workflow without keeping the version it replaces.`);
}

/** What changed from one version of a workflow to another, in a sentence. */
function changedText(diff: WorkflowDiff): string {
  const parts = [
    diff.name ? `the name (${JSON.stringify(diff.name.from)} → ${JSON.stringify(diff.name.to)})` : '',
    diff.nodes.added.length ? `nodes added: ${diff.nodes.added.map((n) => `"${n}"`).join(', ')}` : '',
    diff.nodes.removed.length ? `nodes removed: ${diff.nodes.removed.map((n) => `"${n}"`).join(', ')}` : '',
    diff.nodes.changed.length ? `nodes changed: ${diff.nodes.changed.map((c) => `"${c.node}"`).join(', ')}` : '',
    diff.connections.added.length || diff.connections.removed.length
      ? `connections: ${diff.connections.added.length} added, ${diff.connections.removed.length} removed`
      : '',
    diff.settings.length ? `settings: ${diff.settings.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no nodes, connections, name or settings (its active state or tags, maybe)';
}

/**
 * Refuses a change made from a copy of the workflow older than n8n's (`versionId`: the version the
 * caller read), naming what changed since when the history holds that version.
 */
export async function refuseIfNotFrom(ctx: N8nToolContext, now: Workflow, versionId: string | undefined): Promise<void> {
  if (versionId === undefined || versionId === now.versionId) return;
  const history = await historyFor(ctx);
  const kept = (await history.list(now.id, 50)).find((v) => v.versionId === versionId);
  const then = kept ? await history.get(now.id, kept.version) : null;
  const what = then ? `: since then, ${changedText(diffWorkflows(JSON.parse(then.workflow) as Workflow, now))}` : '';
  throw new ToolError(
    `Workflow ${now.id} has changed since the copy you started from (versionId ${versionId}; n8n has ${now.versionId}, saved ${now.updatedAt})${what}. ` +
      'Nothing was saved: read it again (get_workflow), make your change to that, and send it again.',
  );
}

/** What a change answers when it had nothing to write. */
export const UNCHANGED = 'n8n holds this already: nothing was written, and no version was kept.';

/** The previous version a change kept, or that it changed nothing. */
export const previousVersion = (kept: VersionRecord | null) => (kept ? { previousVersion: kept.version } : { unchanged: UNCHANGED });

/** The writes of a change, each a named step; the first keeps the version it replaces. */
export interface WorkflowChange {
  /** The workflow as n8n had it when the change took its turn. */
  readonly before: Workflow;
  /** Saves content, unless n8n's copy changed since this call read it or last saved it (by anyone): then nothing is saved and the clash is named. */
  save(body: Record<string, unknown>): Promise<Workflow>;
  /** Sets the workflow's tags by name (new ones are created). */
  setTags(names: readonly string[]): Promise<string[]>;
  /** Activates it; `explain` may say more of n8n's refusal. */
  activate(explain?: (error: unknown) => unknown): Promise<Workflow>;
  deactivate(): Promise<Workflow>;
  delete(): Promise<Workflow | undefined>;
  /** Another step of the change (a test run) that writes nothing of the workflow's own: its failure puts the change back too. */
  step<R>(name: string, work: () => Promise<R>): Promise<R>;
}

export interface ChangeOptions {
  /** What the change is, for a call waiting on the workflow's turn. */
  doing: string;
  /** The change sets the workflow's active state: test runs that activated it for themselves leave it so. */
  setsActiveState?: boolean;
}

/** What n8n holds of a workflow that a put-back compares: its content, whether it is active, its tags. */
interface Held {
  workflow: Workflow;
  tags: string[];
}

const tagIdsOf = (w: Workflow) => (w.tags ?? []).map((t) => t.id).sort();
const tagNamesOf = (w: Workflow) => (w.tags ?? []).map((t) => t.name);
const sameNames = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** Whether n8n's copy is what `held` says: the same content, the same active state, the same tags. */
const holds = (now: Workflow, held: Held) =>
  diffWorkflows(held.workflow, now).same && (now.active === true) === (held.workflow.active === true) && sameNames(tagNamesOf(now), held.tags);

/**
 * A change to a saved workflow that can be undone, all or nothing, in the workflow's turn (src/tools/n8n/turns.ts):
 * the workflow is read when the turn comes (`change.before`), and `run` makes the change in named
 * steps. A write that would change nothing (the same content, tags or active state) is not sent; the
 * first one that is keeps the version it replaces in the history (`kept`; null when nothing was
 * written). When a step fails (n8n refuses it, the node gate, a clash), the workflow is put back as it
 * was (content, tags, active state, each only where it differs now), the version kept is dropped (the
 * change did not happen), and the error names the step and the reason. A put-back happens only while
 * n8n holds what this call left (or what its failed write may have made): when someone else changed
 * the workflow meanwhile, it is not overwritten, and the error names the clash and the version that
 * holds the workflow as it was.
 */
export async function changeWorkflow<T>(
  ctx: N8nToolContext,
  n8n: N8nClient,
  workflowId: string,
  change: Change,
  reason: string,
  options: ChangeOptions,
  run: (change: WorkflowChange) => Promise<T>,
): Promise<{ result: T; kept: VersionRecord | null; before: Workflow }> {
  return inTurn(ctx, workflowId, options.doing, async () => {
    const path = workflowPath(workflowId);
    const before = await n8n.get<Workflow>(path);
    let kept: VersionRecord | undefined;
    // What n8n holds after this call's last write, and what a write whose answer did not come may have made instead.
    const left: Held = { workflow: before, tags: tagNamesOf(before) };
    let maybe: Held | undefined;
    const step = async <R>(name: string, work: () => Promise<R>): Promise<R> => {
      try {
        return await work();
      } catch (error) {
        throw new StepFailed(name, error);
      }
    };
    /** Sends a write (keeping the version it replaces first), expecting n8n to hold `expected` after it. */
    const write = async <R>(expected: Held, request: () => Promise<R>): Promise<R> => {
      kept ??= await keepVersion(ctx, before, change, reason);
      maybe = expected;
      const answer = await request();
      maybe = undefined;
      return answer;
    };
    const written = (workflow: Workflow) => {
      left.workflow = workflow;
      return workflow;
    };
    const toggle = (action: 'activate' | 'deactivate', explain: (error: unknown) => unknown) =>
      step(action, async () => {
        if ((left.workflow.active === true) === (action === 'activate') && !(action === 'activate' && publishingOf(left.workflow).draft)) return left.workflow;
        const expected = { ...left, workflow: { ...left.workflow, active: action === 'activate' } };
        const request = () =>
          n8n.post<Workflow>(`${path}/${action}`).catch((error: unknown) => {
            throw explain(error);
          });
        return written(await write(expected, request));
      });
    const writes: WorkflowChange = {
      before,
      save: (body) =>
        step('save', async () => {
          const now = await n8n.get<Workflow>(path);
          if (now.versionId !== left.workflow.versionId) {
            throw new ToolError(
              `workflow ${workflowId} was changed in n8n by someone else while this call worked on it (versionId ${left.workflow.versionId} → ${now.versionId}: ` +
                `${changedText(diffWorkflows(left.workflow, now))}), and their change is not overwritten`,
            );
          }
          if (diffWorkflows(left.workflow, body).same) return left.workflow;
          return written(await write({ ...left, workflow: { ...left.workflow, ...body } }, () => n8n.put<Workflow>(path, { body })));
        }),
      setTags: (names) =>
        step('tags', async () => {
          if (sameNames(names, left.tags)) return left.tags;
          left.tags = [...(await write({ ...left, tags: [...names] }, () => setWorkflowTags(n8n, workflowId, names)))];
          return left.tags;
        }),
      activate: (explain = (error) => error) => toggle('activate', explain),
      deactivate: () => toggle('deactivate', (error) => error),
      delete: () => step('delete', () => write(left, () => n8n.delete<Workflow>(path))),
      step,
    };
    try {
      const result = await run(writes);
      // Asked for an active state, whether or not it had to be written: a test run that activated the workflow leaves it so.
      if (options.setsActiveState) await (await historyFor(ctx)).dropActivationClaim(workflowId);
      return { result, kept: kept ?? null, before };
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      const dropKept = async () => {
        if (kept) await (await historyFor(ctx)).discard(kept.version);
      };
      if (!kept) throw new ToolError(`The ${error.step} step failed: ${error.message}. Nothing was changed.`);
      throw await putBack(n8n.withSignal(AbortSignal.timeout(PUT_BACK_MS)), error, before, [left, ...(maybe ? [maybe] : [])], kept, dropKept);
    }
  });
}

/** The error a failed step ends the change with, once the workflow is put back (or why it is not). */
async function putBack(
  n8n: N8nClient,
  failed: StepFailed,
  before: Workflow,
  ours: Held[],
  kept: VersionRecord,
  dropKept: () => Promise<void>,
): Promise<ToolError> {
  const said = `The ${failed.step} step failed: ${failed.message}.`;
  const holdsIt = `version ${kept.version} of its history is the workflow as it was; restore it with restore_workflow_version`;
  let now: Workflow;
  try {
    now = await n8n.get<Workflow>(workflowPath(before.id));
  } catch (error) {
    return new ToolError(`${said} Workflow ${before.id} could not be read to put it back (${messageOf(error)}): ${holdsIt}.`);
  }
  if (!ours.some((held) => holds(now, held))) {
    return new ToolError(
      `${said} Workflow ${before.id} was then changed by someone else (${changedText(diffWorkflows(ours[0]!.workflow, now))}), so it was not put back over their change: ${holdsIt}.`,
    );
  }
  try {
    await putBackAsItWas(n8n, before, now);
  } catch (error) {
    return new ToolError(`${said} Putting workflow ${before.id} back failed too (${messageOf(error)}): ${holdsIt}.`);
  }
  await dropKept();
  return new ToolError(`${said} Workflow ${before.id} is as it was before this call.`);
}

/**
 * Makes n8n's copy of a workflow (`now`) what `before` was, changing only what differs: the saved
 * content, the tags, and the version n8n runs (none when it was inactive; on an n8n with drafts, the
 * version that was published, which need not be the saved one). n8n 2.x may refuse a save of an active
 * workflow (403, 409) and keep it as a draft all the same, so what counts is what n8n has afterwards:
 * read back and compared, and any difference left is an error naming it.
 */
async function putBackAsItWas(n8n: N8nClient, before: Workflow, now: Workflow): Promise<void> {
  const path = workflowPath(before.id);
  const contentChanged = now.versionId !== before.versionId && !diffWorkflows(before, now).same;
  if (contentChanged) {
    await n8n.put(path, { body: workflowBody(before) }).catch((error: unknown) => {
      if (!(error instanceof N8nApiError && (error.status === 403 || error.status === 409))) throw error;
    });
  }
  if (JSON.stringify(tagIdsOf(now)) !== JSON.stringify(tagIdsOf(before))) await n8n.put(`${path}/tags`, { body: tagIdsOf(before).map((id) => ({ id })) });
  const wasLive = publishingOf(before).liveVersionId;
  // A save may have published (n8n 2.x): what runs is read again after one.
  const saved = contentChanged ? await n8n.get<Workflow>(path) : now;
  if (wasLive === null) {
    if (saved.active === true) await n8n.post(`${path}/deactivate`);
  } else if (!runsAsBefore(saved, before)) {
    await n8n.post(`${path}/activate`, { body: { versionId: wasLive } });
  }
  const after = await n8n.get<Workflow>(path);
  const differs = [
    diffWorkflows(before, after).same ? '' : 'its content',
    JSON.stringify(tagIdsOf(after)) === JSON.stringify(tagIdsOf(before)) ? '' : 'its tags',
    (after.active === true) === (before.active === true) && (wasLive === null || runsAsBefore(after, before)) ? '' : 'the version n8n runs',
  ].filter(Boolean);
  if (differs.length) throw new Error(`n8n's copy still differs in ${differs.join(' and ')}`);
}

/** Whether n8n runs what it ran before: the same published version, or one with the same nodes and connections (n8n 1.x publishes every save anew). */
function runsAsBefore(now: Workflow, before: Workflow): boolean {
  if (now.active !== true) return false;
  if (publishingOf(now).liveVersionId === publishingOf(before).liveVersionId) return true;
  return diffWorkflows(liveVersionOf(before), liveVersionOf(now)).same;
}
