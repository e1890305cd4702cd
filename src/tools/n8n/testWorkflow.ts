import { waitUntil } from 'cloudflare:workers';
import { z } from 'zod';
import { n8nConnection, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { isPlainObject } from '../../workflows/values';
import { ToolError, type ToolContext } from '../tool';
import { n8nTool } from './n8nTool';
import { triggerKind, triggerRequest, triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';
import { NamedObject } from '../validation/schemas';

interface Execution {
  id: string;
  status?: string;
  finished?: boolean;
  startedAt?: string;
  stoppedAt?: string;
  data?: { resultData?: { error?: { message?: string }; lastNodeExecuted?: string; runData?: Record<string, NodeRun[]> } };
}

interface NodeRun {
  executionStatus?: string;
  executionTime?: number;
  error?: { message?: string; description?: string };
  data?: Record<string, ({ json?: unknown }[] | null)[]>;
}

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
    'choose; wait for the execution and answer what happened per node: status, error, the number of items on each ' +
    'output and a sample. An inactive workflow is activated for the run and deactivated after, however the run ends ' +
    '(the answer says so if it could not be). The last step of the loop: search → details → write → validate → fix → ' +
    'create or edit → test.',
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
  const since = Date.now();
  const response = await call(url, node, payload, signal).catch((error: unknown) => {
    if (signal.aborted)
      throw new ToolError(`The trigger "${node.name}" did not answer before the run had to stop (cancelled, or its time was up): ${messageOf(error)}`);
    throw error;
  });
  const until = Math.min(stopBy, Date.now() + waitMs);
  const execution = await waitForExecution(n8n, workflowId, since, until, signal);
  return {
    trigger: { node: node.name, url: response.url, status: response.status, response: response.body },
    execution: execution
      ? summarize(execution)
      : { status: 'not found', note: `no execution of workflow ${workflowId} finished within ${Math.round((until - since) / 1000)} s` },
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
async function call(url: URL, node: TriggerNode, payload: Record<string, unknown>, signal: AbortSignal) {
  const response = await fetch(url, { ...triggerRequest(url, node, payload), redirect: 'manual', signal });
  const body = await response.text();
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON (a form's HTML answer): keep the text
  }
  return { url: url.pathname, status: response.status, body: clip(parsed) };
}

/** The newest execution of the workflow that started after `since`, once it has finished; null if none has by `until` (or the run stopped). */
async function waitForExecution(n8n: N8nClient, workflowId: string, since: number, until: number, signal: AbortSignal): Promise<Execution | null> {
  while (Date.now() < until && !signal.aborted) {
    const page = await n8n.get<{ data: Execution[] }>('/executions', { query: { workflowId, includeData: true, limit: 5 } }).catch((error: unknown) => {
      if (signal.aborted) return { data: [] };
      throw error;
    });
    const ours = page.data.find((e) => e.startedAt !== undefined && Date.parse(e.startedAt) >= since - 1000);
    if (ours && ours.status !== 'running' && ours.status !== 'new' && ours.status !== 'waiting' && ours.stoppedAt) return ours;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** Per node: how it ended, its error, and per output the number of items and the first item, cut short. */
function summarize(execution: Execution) {
  const runData = execution.data?.resultData?.runData ?? {};
  const nodes = Object.entries(runData).map(([name, runs]) => {
    const last = runs.at(-1);
    const outputs = Object.values(last?.data ?? {}).flatMap((outs) => outs.map((items) => items ?? []));
    return {
      node: name,
      status: last?.error ? 'error' : (last?.executionStatus ?? 'success'),
      ...(last?.error ? { error: last.error.message ?? last.error.description ?? 'failed' } : {}),
      runs: runs.length,
      items: outputs.map((items) => items.length),
      ...(outputs.some((items) => items.length) ? { sample: clip(outputs.find((items) => items.length)![0]?.json) } : {}),
    };
  });
  return {
    id: execution.id,
    status: execution.status ?? (execution.finished ? 'success' : 'error'),
    ...(execution.data?.resultData?.error ? { error: execution.data.resultData.error.message } : {}),
    nodes,
  };
}

/** A value cut to about 1,000 characters of JSON, so a run's answer stays small. */
function clip(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= 1000) return value;
  return `${text.slice(0, 1000)}… (${text.length} characters)`;
}
