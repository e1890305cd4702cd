import { z } from 'zod';
import { n8nConnection, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { isPlainObject } from '../../workflows/values';
import { ToolError } from '../tool';
import { n8nTool } from './n8nTool';
import { triggerKind, triggerRequest, triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';

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

export const testWorkflow = n8nTool({
  name: 'test_workflow',
  title: 'Test-run a workflow',
  description:
    'Run a workflow that starts with a Webhook, Form or Chat trigger through the URL n8n gives it, with a payload you ' +
    'choose; wait for the execution and answer what happened per node: status, error, the number of items on each ' +
    'output and a sample. An inactive workflow is activated for the run and deactivated after. The last step of the ' +
    'loop: search → details → write → validate → fix → create or edit → test.',
  input: z.object({
    id: n8nId('workflow'),
    payload: z.record(z.string(), z.unknown()).optional().describe('JSON body (POST…) or query (GET) to send; a chat message for Chat triggers'),
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
    if (!wasActive) await n8n.post(`${workflowPath(workflowId)}/activate`);
    const since = Date.now();
    try {
      const response = await call(url, node, payload ?? {}, ctx.signal);
      const execution = await waitForExecution(n8n, workflowId, since, waitSeconds * 1000, ctx.signal);
      return {
        workflow: { id: workflowId, name: workflow.name, activatedForTheRun: !wasActive },
        trigger: { node: node.name, url: response.url, status: response.status, response: response.body },
        execution: execution ? summarize(execution) : { status: 'not found', note: `no execution of workflow ${workflowId} finished within ${waitSeconds} s` },
      };
    } finally {
      if (!wasActive) await n8n.post(`${workflowPath(workflowId)}/deactivate`).catch(() => undefined);
    }
  },
});

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

/** The newest execution of the workflow that started after `since`, once it has finished. */
async function waitForExecution(n8n: N8nClient, workflowId: string, since: number, waitMs: number, signal: AbortSignal): Promise<Execution | null> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && !signal.aborted) {
    const page = await n8n.get<{ data: Execution[] }>('/executions', { query: { workflowId, includeData: true, limit: 5 } });
    const ours = page.data.find((e) => e.startedAt !== undefined && Date.parse(e.startedAt) >= since - 1000);
    if (ours && ours.status !== 'running' && ours.status !== 'new' && ours.status !== 'waiting' && ours.stoppedAt) return ours;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** Per node: how it ended, its error, and per output the number of items and the first item, cut short. */
export function summarize(execution: Execution) {
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
