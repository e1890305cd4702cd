import { z } from 'zod';
import { GateRefusal, n8nConnection, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { isPlainObject } from '../../workflows/values';
import { ToolError, type ToolContext } from '../tool';
import { n8nTool } from './n8nTool';
import { clip, failureOf, nodeSummaries, runPath, whereItemsStopped, type Execution, type ItemsStopped } from './executionReport';
import { callTrigger, newestExecutionId, waitForOwnExecution } from './ownExecution';
import { liveVersionOf, publishingOf } from './publishing';
import { historyFor } from '../../history/history';
import { messageOf, runWithCleanUp } from './runWithCleanUp';
import { inTurn, TURN_GRACE_MS } from './turns';
import { RUN_HEADER, triggerKind, triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';
import { NamedObject } from '../validation/schemas';

/**
 * What the run leaves of the call's time for putting the workflow back: the run stops this long before
 * the deadline, so that the deactivation (one n8n request) is answered before the call is.
 */
const RESTORE_MS = 10_000;

export const testWorkflow = n8nTool({
  name: 'test_workflow',
  title: 'Test-run a workflow',
  description:
    'Run a workflow that starts with a Webhook, Form or Chat trigger through the URL n8n gives it, with a payload you ' +
    "choose; wait for the execution of this run (not another caller's) to finish or to pause at a Wait node, and " +
    'answer what happened: a verdict, the node ' +
    'that failed with its error and the items it was given, or where the items stopped (nodes no item reached, such ' +
    'as a Respond to Webhook); per node its status, items on each output and a sample. A failed execution is a failed ' +
    'test whatever HTTP status the webhook answered. An active workflow runs the version n8n has published (on an ' +
    'n8n with drafts not always the saved one: the answer names the version that ran, and the draft if there is one). ' +
    'An inactive workflow is activated for the run and deactivated after, however the run ends, unless someone set its ' +
    'active state or changed it meanwhile (the answer says so when it is left active). The last step of the loop: search → details ' +
    '→ write → validate → fix → create or edit → test.',
  input: z.object({
    id: n8nId('workflow'),
    payload: NamedObject.optional().describe('JSON body (POST…) or query (GET) to send; a chat message for Chat triggers'),
    trigger: z.string().optional().describe('Which trigger node to call, by name, if there are several'),
    waitSeconds: z.number().int().min(1).max(110).default(30).describe('How long to wait for the execution to finish'),
  }),
  // A run does whatever the workflow does, again each time: neither harmless nor repeatable.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  checkWith: 'list_executions',
  alsoNeeds: ['executions:read'],
  timeoutMs: 120_000,
  runsLong: () => true,
  async run({ id: workflowId, payload, trigger, waitSeconds }, n8n, ctx) {
    return (await runWorkflowTest(n8n, ctx, { workflowId, payload: payload ?? {}, trigger, waitSeconds })).answer;
  },
});

/** One test run of a saved workflow: which, with what, how long to wait for its execution. */
export interface RunRequest {
  workflowId: string;
  payload: Record<string, unknown>;
  trigger?: string;
  waitSeconds: number;
}

/**
 * Runs a workflow once through its trigger, as test_workflow does (activated for the run if it was
 * not, and put back): the answer test_workflow gives, and the trigger's answer whole (the answer
 * clips it) for stored tests to judge.
 */
export async function runWorkflowTest(n8n: N8nClient, ctx: ToolContext, { workflowId, payload, trigger, waitSeconds }: RunRequest) {
  const workflow = await n8n.get<Workflow>(workflowPath(workflowId));
  const wasActive = workflow.active === true;
  // An active workflow runs its published version, which may not be the saved one (n8n with drafts).
  const { versionId, liveVersionId, draft } = publishingOf(workflow);
  const node = callableTrigger(wasActive ? liveVersionOf(workflow).nodes : (workflow.nodes ?? []), trigger);
  const url = triggerUrl(n8nConnection(ctx.env)!.apiBase.replace(/\/api\/v1$/, ''), node);
  await ctx.beginSideEffect();
  const activation: Activation = { claimed: false };
  const { ran, cleaned: restored } = await runWithCleanUp(
    ctx,
    RESTORE_MS,
    async ({ signal, stopBy }) => {
      const run = n8n.withSignal(signal);
      await activateForTheRun(run, ctx, workflowId, activation);
      return runTest({ n8n: run, signal, stopBy, workflowId, node, url, payload, waitMs: waitSeconds * 1000 });
    },
    async (signal) => (activation.claimed ? deactivateAfterTheRun(n8n.withSignal(signal), ctx, workflowId, activation) : undefined),
  );
  if ('error' in ran) throw restored === undefined || restored.ok ? ran.error : new ToolError(`${messageOf(ran.error)}. ${restored.warning}`);
  const { responseBody, ranVersionId: recorded, ...result } = ran.value;
  // Which version ran: as the execution records it (n8n 2.x), else the one n8n had published.
  const ranVersionId = recorded ?? (wasActive ? liveVersionId : versionId);
  const answer = {
    workflow: {
      id: workflowId,
      name: workflow.name,
      activatedForTheRun: activation.claimed,
      ranVersionId,
      ...(draft && ranVersionId !== versionId ? { draft } : {}),
      ...(restored && !restored.ok ? { stillActive: true, warning: restored.warning } : {}),
    },
    ...result,
  };
  return { answer, responseBody };
}

/** What a run knows of the activation it made (or joined): whether it holds a claim on it, and the version n8n had then. */
interface Activation {
  claimed: boolean;
  versionId?: string;
}

/**
 * Activates an inactive workflow for a run, in the workflow's turn, claiming the active state (in the
 * instance's history) before the request is sent, so that an activation whose answer is lost is put
 * back too. A workflow found active is another's doing: the run joins the claim of the test runs it
 * was activated for (the last of them puts it back), or, activated by someone else, leaves it alone.
 */
async function activateForTheRun(n8n: N8nClient, ctx: ToolContext, workflowId: string, activation: Activation): Promise<void> {
  const history = await historyFor(ctx.env);
  await inTurn(ctx, workflowId, 'test_workflow: activating it for a run', async () => {
    const now = await n8n.get<Workflow>(workflowPath(workflowId));
    const activating = now.active !== true;
    activation.claimed = await history.claimActivation(workflowId, ctx.callId, ctx.caller.subject, ctx.deadline + TURN_GRACE_MS, activating);
    activation.versionId = now.versionId;
    if (!activating) return;
    try {
      activation.versionId = (await n8n.post<Workflow>(`${workflowPath(workflowId)}/activate`)).versionId;
    } catch (error) {
      // Refused by the gate: not sent, nothing to put back.
      if (error instanceof GateRefusal) {
        await history.endActivationClaim(workflowId, ctx.callId);
        activation.claimed = false;
      }
      throw error;
    }
  });
}

/**
 * Puts a workflow activated for test runs back, in its turn, when the last of those runs ends (`n8n`
 * carries the clean-up's own signal); not when someone set its active state or changed it in n8n
 * meanwhile: the answer says so. A failure is logged (the workflow, never the key) and said in the
 * answer: the workflow's production triggers stay live until someone deactivates it.
 */
async function deactivateAfterTheRun(
  n8n: N8nClient,
  ctx: ToolContext,
  workflowId: string,
  activation: Activation,
): Promise<{ ok: true } | { ok: false; warning: string }> {
  try {
    return await inTurn(ctx, workflowId, 'test_workflow: deactivating it after a run', async () => {
      const { stood, others } = await (await historyFor(ctx.env)).endActivationClaim(workflowId, ctx.callId);
      if (!stood) return left(workflowId, 'its active state was set by another call during the run (activate_workflow, deactivate_workflow or an edit)');
      if (others > 0) return { ok: true as const };
      const now = await n8n.get<Workflow>(workflowPath(workflowId));
      if (now.active !== true) return { ok: true as const };
      if (activation.versionId !== undefined && now.versionId !== activation.versionId) {
        return left(workflowId, `it was changed in n8n during the run (versionId ${activation.versionId} → ${now.versionId})`);
      }
      await n8n.post(`${workflowPath(workflowId)}/deactivate`);
      return { ok: true as const };
    });
  } catch (error) {
    const warning = `Workflow ${workflowId} was activated for the test run and could not be deactivated again (${messageOf(error)}): it is active now and its production triggers are live. Deactivate it with deactivate_workflow.`;
    console.error(
      JSON.stringify({
        level: 'error',
        tool: 'test_workflow',
        workflowId,
        message: 'could not deactivate the workflow after a test run',
        error: messageOf(error),
      }),
    );
    await ctx.log('error', warning).catch(() => {});
    return { ok: false, warning };
  }
}

/** A workflow activated for a run that is left active, and why. */
const left = (workflowId: string, why: string) => ({
  ok: false as const,
  warning: `Workflow ${workflowId} was activated for the test run and is left active: ${why}. Deactivate it with deactivate_workflow if it should not be active.`,
});

interface TestRun {
  /** The client and signal of the run: aborted when the call is cancelled, or at `stopBy`. */
  n8n: N8nClient;
  signal: AbortSignal;
  stopBy: number;
  workflowId: string;
  node: TriggerNode;
  url: URL;
  payload: Record<string, unknown>;
  /** How long to wait for the execution to finish once the trigger has answered. */
  waitMs: number;
}

/** Calls the trigger and waits for the execution of this run. */
async function runTest({ n8n, signal, stopBy, workflowId, node, url, payload, waitMs }: TestRun) {
  const runId = crypto.randomUUID();
  // Executions are numbered in order: this run's is newer than the newest before the call, whoever else runs the workflow.
  const newestBefore = await newestExecutionId(n8n);
  const since = Date.now();
  const response = await callTrigger(n8n, { workflowId, url, node, payload, runId }, signal);
  const until = Math.min(stopBy, Date.now() + waitMs);
  const found = await waitForOwnExecution({ n8n, workflowId, after: newestBefore, until, signal, trigger: node, runId, payload });
  return {
    responseBody: response.body,
    ranVersionId: found?.execution.workflowVersionId ?? null,
    trigger: { node: node.name, url: response.url, status: response.status, response: clip(response.body) },
    execution: found
      ? report(found.execution, node, found.identifiedBy)
      : { status: 'not found', note: `no execution of this run of workflow ${workflowId} finished within ${Math.round((until - since) / 1000)} s` },
  };
}

function callableTrigger(workflowNodes: readonly unknown[], name: string | undefined): TriggerNode {
  const nodes = workflowNodes.filter((n): n is TriggerNode => isPlainObject(n) && typeof n.name === 'string' && typeof n.type === 'string');
  const callable = nodes.filter((n) => !n.disabled && triggerKind(n));
  const chosen = name === undefined ? callable[0] : callable.find((n) => n.name === name);
  if (chosen) return chosen;
  const triggers = nodes.filter((n) => /trigger|webhook/i.test(n.type)).map((n) => `${n.name} (${n.type})`);
  throw new ToolError(
    name !== undefined
      ? `"${name}" is not an enabled Webhook, Form or Chat trigger of this workflow${callable.length ? `; those are: ${callable.map((n) => n.name).join(', ')}` : ''}.`
      : `This workflow has no trigger that can be called from outside: test_workflow runs workflows that start with a Webhook, Form or Chat trigger${triggers.length ? ` (its triggers: ${triggers.join(', ')})` : ''}. Add a Webhook trigger to test it.`,
  );
}

/** A run paused at a Wait node, in words: where, until when, and that it goes on by itself. */
function waitingText(execution: Execution): string {
  const at = execution.data?.resultData?.lastNodeExecuted;
  const until = typeof execution.waitTill === 'string' ? `until ${execution.waitTill}` : 'until it is resumed (its resume URL or form)';
  return `waiting: the run is paused${at ? ` at "${at}"` : ''} ${until}; n8n goes on with it then, and get_execution reads it afterwards`;
}

/** Where the last items went, in words: "the last node that put out items was "Keep", on output 1, which is connected to nothing". */
function lastItemsText(last: ItemsStopped['lastWithItems']): string {
  if (!last) return 'no node put out any items';
  const loose = last.unconnectedOutputs ?? [];
  const where = loose.length ? `, on output${loose.length > 1 ? 's' : ''} ${loose.join(', ')}, connected to nothing` : '';
  return `the last node that put out items was "${last.node}"${where}`;
}

/**
 * The run as the answer tells it: a verdict first, then the failure (node, error, the items it was
 * given) or where the items stopped, the path the run took, and per node its counts and a sample.
 */
function report(execution: Execution, trigger: TriggerNode, identifiedBy: 'mark' | 'order') {
  const samples = { trigger: trigger.name, hideHeaders: [RUN_HEADER] };
  const status = execution.status ?? (execution.finished ? 'success' : 'error');
  const failed = failureOf(execution, samples);
  // A run paused at a Wait node has not reached the nodes after it yet: that is not where its items stopped.
  const stopped = failed || status === 'waiting' ? undefined : whereItemsStopped(execution, trigger.name);
  const verdict = failed
    ? `failed: "${failed.node}" stopped the run: ${failed.error}`
    : status === 'waiting'
      ? waitingText(execution)
      : stopped?.didNotRun.length
        ? `${status}, but no item reached ${stopped.didNotRun.map((n) => `"${n}"`).join(', ')}: ${lastItemsText(stopped.lastWithItems)}`
        : status;
  return {
    id: String(execution.id),
    status,
    verdict,
    ...(identifiedBy === 'order'
      ? {
          identifiedBy: `the first execution to finish after the call: a ${triggerKind(trigger)} trigger keeps no mark of the run, so another run of this workflow at the same time could be taken for it`,
        }
      : {}),
    ...(failed ? { failed } : {}),
    ...(stopped?.lastWithItems ? { lastWithItems: stopped.lastWithItems } : {}),
    ...(stopped?.didNotRun.length ? { didNotRun: stopped.didNotRun } : {}),
    path: runPath(execution),
    nodes: nodeSummaries(execution, samples),
  };
}
