import { waitUntil } from 'cloudflare:workers';
import { z } from 'zod';
import { n8nConnection, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { own } from '../../lib/ownKeys';
import { isPlainObject } from '../../workflows/values';
import { ToolError, type ToolContext } from '../tool';
import { n8nTool } from './n8nTool';
import { clip, failureOf, nodeSummaries, runPath, whereItemsStopped, type Execution, type ItemsStopped } from './executionReport';
import { isMarkedRun, RUN_HEADER, triggerKind, triggerRequest, triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';
import { NamedObject } from '../validation/schemas';

const POLL_MS = 500;
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
    "choose; wait for the execution of this run (not another caller's) and answer what happened: a verdict, the node " +
    'that failed with its error and the items it was given, or where the items stopped (nodes no item reached, such ' +
    'as a Respond to Webhook); per node its status, items on each output and a sample. A failed execution is a failed ' +
    'test whatever HTTP status the webhook answered. An inactive workflow is activated for the run and deactivated ' +
    'after, however the run ends (the answer says so if it could not be). The last step of the loop: search → details ' +
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
  async run({ id: workflowId, payload, trigger, waitSeconds }, n8n, ctx) {
    const workflow = await n8n.get<Workflow>(workflowPath(workflowId));
    const node = callableTrigger(workflow, trigger);
    const url = triggerUrl(n8nConnection(ctx.env)!.apiBase.replace(/\/api\/v1$/, ''), node);
    const wasActive = workflow.active === true;
    await ctx.beginSideEffect();
    // The run stops when the call is cancelled, or early enough to put the workflow back before the deadline.
    const stopBy = ctx.deadline - RESTORE_MS;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(0, stopBy - Date.now()))]);
    const test = { n8n: n8n.withSignal(signal), signal, stopBy, workflowId, node, url, payload: payload ?? {}, waitMs: waitSeconds * 1000 };
    // The deactivation does not wait for the run's signal (it is aborted by then), nor for the answer:
    // the invocation is kept until it is done, whoever stops waiting for the call (waitUntil).
    const done = settle(runTest(test, wasActive)).then(async (ran) => ({ ran, restored: wasActive ? undefined : await deactivate(n8n, workflowId, ctx) }));
    waitUntil(done);
    const { ran, restored } = await done;
    if ('error' in ran) throw restored === undefined || restored.ok ? ran.error : new ToolError(`${messageOf(ran.error)}. ${restored.warning}`);
    return {
      workflow: {
        id: workflowId,
        name: workflow.name,
        activatedForTheRun: !wasActive,
        ...(restored && !restored.ok ? { stillActive: true, warning: restored.warning } : {}),
      },
      ...ran.value,
    };
  },
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

/** Activates the workflow if it was not active (inside the run: an activation whose answer was lost is put back too), calls the trigger, waits for the execution. */
async function runTest({ n8n, signal, stopBy, workflowId, node, url, payload, waitMs }: TestRun, wasActive: boolean) {
  if (!wasActive) await n8n.post(`${workflowPath(workflowId)}/activate`);
  const runId = crypto.randomUUID();
  // Executions are numbered in order: this run's is newer than the newest before the call, whoever else runs the workflow.
  const newestBefore = await newestExecutionId(n8n, workflowId);
  const since = Date.now();
  const response = await call(url, node, payload, runId, signal).catch((error: unknown) => {
    if (signal.aborted)
      throw new ToolError(`The trigger "${node.name}" did not answer before the run had to stop (cancelled, or its time was up): ${messageOf(error)}`);
    throw error;
  });
  const until = Math.min(stopBy, Date.now() + waitMs);
  const isOurs = (execution: Execution) => isMarkedRun(node, triggerItem(execution, node.name), runId, payload);
  const found = await waitForExecution(n8n, workflowId, newestBefore, until, signal, isOurs);
  return {
    trigger: { node: node.name, url: response.url, status: response.status, response: response.body },
    execution: found
      ? report(found.execution, node, found.identifiedBy)
      : { status: 'not found', note: `no execution of this run of workflow ${workflowId} finished within ${Math.round((until - since) / 1000)} s` },
  };
}

/**
 * Puts a workflow activated for a test run back, with a signal of its own (the run's is aborted by
 * then) and the rest of the call's time. A failure is logged (the workflow, never the key) and said in
 * the answer: the workflow's production triggers stay live until someone deactivates it.
 */
async function deactivate(n8n: N8nClient, workflowId: string, ctx: ToolContext): Promise<{ ok: true } | { ok: false; warning: string }> {
  const budget = Math.max(RESTORE_MS / 2, ctx.deadline - Date.now());
  try {
    await n8n.withSignal(AbortSignal.timeout(budget)).post(`${workflowPath(workflowId)}/deactivate`);
    return { ok: true };
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

const settle = <T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function callableTrigger(workflow: Workflow, name: string | undefined): TriggerNode {
  const nodes = (workflow.nodes ?? []).filter((n): n is TriggerNode => isPlainObject(n) && typeof n.name === 'string' && typeof n.type === 'string');
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

/** Calls the trigger; a redirect is answered, not followed (where a workflow sends its caller is not a place this server fetches). */
async function call(url: URL, node: TriggerNode, payload: Record<string, unknown>, runId: string, signal: AbortSignal) {
  const response = await fetch(url, { ...triggerRequest(url, node, payload, runId), redirect: 'manual', signal });
  const body = await response.text();
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON (a form's HTML answer): keep the text
  }
  return { url: url.pathname, status: response.status, body: clip(parsed) };
}

/** Where the last items went, in words: "the last node that put out items was "Keep", on output 1, which is connected to nothing". */
function lastItemsText(last: ItemsStopped['lastWithItems']): string {
  if (!last) return 'no node put out any items';
  const loose = last.unconnectedOutputs ?? [];
  const where = loose.length ? `, on output${loose.length > 1 ? 's' : ''} ${loose.join(', ')}, connected to nothing` : '';
  return `the last node that put out items was "${last.node}"${where}`;
}

interface ExecutionPage {
  data: Execution[];
  nextCursor?: string | null;
}

const LIST_LIMIT = 100;
const executionNumber = (id: string | number) => Number(id);
const isFinished = (e: Execution) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting' && Boolean(e.stoppedAt);

/** The number of the workflow's newest execution, 0 when it has none. */
async function newestExecutionId(n8n: N8nClient, workflowId: string): Promise<number> {
  const page = await n8n.get<ExecutionPage>('/executions', { query: { workflowId, limit: 1 } });
  const newest = page.data[0];
  return newest === undefined ? 0 : executionNumber(newest.id);
}

/** The first item the trigger put out in an execution. */
const triggerItem = (execution: Execution, trigger: string): unknown =>
  own(execution.data?.resultData?.runData ?? {}, trigger)?.[0]?.data?.main?.[0]?.[0]?.json;

/**
 * This run's execution, once finished: among the workflow's executions newer than `after`, the one
 * whose trigger item carries the run's mark (each finished one is read once). A trigger that keeps no
 * mark (a form) gets the oldest finished one, said in `identifiedBy`. Null when none has by `until`.
 */
async function waitForExecution(
  n8n: N8nClient,
  workflowId: string,
  after: number,
  until: number,
  signal: AbortSignal,
  isOurs: (execution: Execution) => boolean | undefined,
): Promise<{ execution: Execution; identifiedBy: 'mark' | 'order' } | null> {
  const read = new Set<string>();
  while (Date.now() < until && !signal.aborted) {
    try {
      for (const candidate of await newerExecutions(n8n, workflowId, after)) {
        const id = String(candidate.id);
        if (read.has(id) || !isFinished(candidate)) continue;
        const execution = await n8n.get<Execution>(`/executions/${id}`, { query: { includeData: true } });
        read.add(id);
        const ours = isOurs(execution);
        if (ours !== false) return { execution, identifiedBy: ours === undefined ? 'order' : 'mark' };
      }
    } catch (error) {
      if (signal.aborted) return null;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** The workflow's executions numbered above `after`, oldest first, page by page. */
async function newerExecutions(n8n: N8nClient, workflowId: string, after: number): Promise<Execution[]> {
  const newer: Execution[] = [];
  let cursor: string | undefined;
  do {
    const page = await n8n.get<ExecutionPage>('/executions', { query: { workflowId, limit: LIST_LIMIT, cursor } });
    const beyond = page.data.filter((e) => !(executionNumber(e.id) <= after));
    newer.push(...beyond);
    cursor = beyond.length === page.data.length ? (page.nextCursor ?? undefined) : undefined;
  } while (cursor);
  return newer.reverse();
}

/**
 * The run as the answer tells it: a verdict first, then the failure (node, error, the items it was
 * given) or where the items stopped, the path the run took, and per node its counts and a sample.
 */
function report(execution: Execution, trigger: TriggerNode, identifiedBy: 'mark' | 'order') {
  const samples = { trigger: trigger.name, hideHeaders: [RUN_HEADER] };
  const status = execution.status ?? (execution.finished ? 'success' : 'error');
  const failed = failureOf(execution, samples);
  const stopped = failed ? undefined : whereItemsStopped(execution, trigger.name);
  const verdict = failed
    ? `failed: "${failed.node}" stopped the run: ${failed.error}`
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
