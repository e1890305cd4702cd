/**
 * Taking turns on the n8n this server drives, through the instance's history object (one place that
 * every isolate asks): one change of a workflow at a time, in order; a cap on the runs one caller has
 * going at once, so one caller cannot hold n8n for the others.
 */
import { ToolError } from '../tool';
import type { N8nToolContext } from './n8nTool';
import { historyFor } from '../../history/history';

/** What a change keeps of the call's time once it has its turn: a call that would wait past that is refused instead. */
const CHANGE_MS = 20_000;
/** How long past the call's deadline its turn lasts: a put-back after a failed step may run until then. */
export const TURN_GRACE_MS = 25_000;
/** Runs one caller may have going at once, unless RUNS_PER_CALLER says otherwise. */
const DEFAULT_RUNS_PER_CALLER = 3;

/**
 * Runs `work` in the workflow's turn: a change of it by another call (any isolate, any caller) waits
 * for this one, and this one for it, in order; a call that would wait past what it needs of its own
 * time is refused, naming the call in the way. A call that has the turn already (edit_workflow's tests
 * run test_workflow's steps) goes on in it.
 */
export async function inTurn<T>(ctx: N8nToolContext, workflowId: string, what: string, work: () => Promise<T>): Promise<T> {
  const history = await historyFor(ctx);
  const turn = await history.takeTurn(workflowId, ctx.callId, ctx.caller.subject, what, ctx.deadline + TURN_GRACE_MS, ctx.deadline - CHANGE_MS);
  if ('busy' in turn) {
    const { what: doing, owner, since, until } = turn.busy;
    throw new ToolError(
      `Workflow ${workflowId} is being changed by another call (${doing}, by ${owner}, since ${since}); its turn ends by ${until} at the latest. ` +
        'Nothing was changed: try again after it.',
    );
  }
  try {
    return await work();
  } finally {
    if (turn.held === 'new') await history.endTurn(workflowId, ctx.callId).catch(() => {});
  }
}

/** RUNS_PER_CALLER, a positive whole number, else the default. */
function runsPerCaller(ctx: N8nToolContext): number {
  const n = Number(ctx.env.RUNS_PER_CALLER);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_RUNS_PER_CALLER;
}

/**
 * Runs `work` as one of the caller's runs (a test, a try): refused while the caller has as many going
 * as one caller may, naming them, so that no caller fills n8n and the queue with its runs.
 */
export async function asRun<T>(ctx: N8nToolContext, what: string, work: () => Promise<T>): Promise<T> {
  const history = await historyFor(ctx);
  const max = runsPerCaller(ctx);
  const began = await history.beginRun(ctx.callId, ctx.caller.subject, what, ctx.deadline + TURN_GRACE_MS, max);
  if ('busy' in began) {
    const going = began.busy.map((b) => `${b.what} since ${b.since}`).join('; ');
    throw new ToolError(
      `This caller has ${began.busy.length} runs going (${going}), as many as one caller may have at once (RUNS_PER_CALLER: ${max}). ` +
        'Nothing was run: try again when one has ended.',
    );
  }
  try {
    return await work();
  } finally {
    await history.endRun(ctx.callId).catch(() => {});
  }
}
