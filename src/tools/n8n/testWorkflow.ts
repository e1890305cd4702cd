import { z } from 'zod';
import { GateRefusal, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { isPlainObject } from '../../workflows/values';
import { ToolError } from '../tool';
import { n8nTool, type N8nToolContext } from './n8nTool';
import { Catalog } from '../../catalog/catalog';
import { catalogForNodes } from '../../workflows/prefetch';
import {
  clip,
  failureOf,
  itemsPutOut,
  nodeSummaries,
  outputNamesOf,
  runPath,
  stopText,
  whereItemsStopped,
  type Execution,
  type ItemsStopped,
  type NodeSummary,
  type OutputNames,
} from './executionReport';
import { callTrigger, newestExecutionId, waitForOwnExecution } from './ownExecution';
import { liveVersionOf, publishingOf } from './publishing';
import { historyFor } from '../../history/history';
import { messageOf, runWithCleanUp } from './runWithCleanUp';
import { inTurn, TURN_GRACE_MS } from './turns';
import { RUN_HEADER, triggerKind, triggerUrl, type TriggerNode } from './trigger';
import { workflowPath, type Workflow } from './workflowApi';
import { NamedObject } from '../validation/schemas';
import { valueAt } from '../../lib/jsonPointer';

/**
 * What the run leaves of the call's time for putting the workflow back: the run stops this long before
 * the deadline, so that the deactivation (one n8n request) is answered before the call is.
 */
const RESTORE_MS = 10_000;

/** What a test case expects of a run; every part it gives must hold. */
const Expectation = z.object({
  status: z.number().int().min(100).max(599).optional().describe('The HTTP status the trigger answers'),
  body: NamedObject.optional().describe('Fields of the JSON answer: JSON Pointer → the value it must have, e.g. {"/ok": true, "/order/total": 250}'),
  items: NamedObject.optional().describe('Node name → how many items it must put out (all its outputs together); 0 for a node no item may reach'),
  noFailedNode: z.boolean().default(true).describe('The execution must succeed with no failed node (default true)'),
});

/**
 * A test case: what to send the trigger, and what must hold of the run. test_workflow runs a list of
 * them at once; save_workflow_test keeps one, named, with the workflow.
 */
export const TestCase = z.object({
  name: z.string().min(1).max(100).optional().describe('A name for the case, said in its result (default "case 1", "case 2"…)'),
  payload: NamedObject.optional().describe('What test_workflow sends the trigger: JSON body (POST…) or query (GET), a chat message'),
  trigger: z.string().optional().describe('Which trigger to call, by name, if there are several'),
  expect: Expectation.default({ noFailedNode: true }),
  waitSeconds: z.number().int().min(1).max(60).default(20).describe('How long to wait for its execution'),
});
type TestCase = z.output<typeof TestCase>;

/** At most this many cases in one test_workflow call: as many as a workflow may keep saved. */
const MAX_CASES = 20;

export const testWorkflow = n8nTool({
  name: 'test_workflow',
  title: 'Test-run a workflow',
  description:
    'Run a workflow that starts with a Webhook, Form or Chat trigger through the URL n8n gives it, with a payload you ' +
    "choose; wait for the execution of this run (not another caller's) to finish or to pause at a Wait node, and " +
    'answer what happened: a verdict, the node that failed with its error, the item it failed on and the items it was ' +
    'given, or where the items stopped, told apart: a branch not taken (an IF, Switch or Filter output that got no items ' +
    'while the node ran) or a chain that stopped (a node that put out no items, so nothing after it ran); per node its ' +
    'status, items on each output (labelled where it has several) and a sample. A failed execution is a failed ' +
    'test whatever HTTP status the webhook answered. An active workflow runs the version n8n has published (on an ' +
    'n8n with drafts not always the saved one: the answer names the version that ran, and the draft if there is one). ' +
    'An inactive workflow is activated for the run and deactivated after, however the run ends, unless someone set its ' +
    'active state or changed it meanwhile (the answer says so when it is left active). With cases, several payloads in one ' +
    'call, each judged by what it expects (HTTP status, answer fields, items per node, no failed node) and answered per ' +
    'case; save_workflow_test keeps a case with the workflow. The last step of the loop: search → details ' +
    '→ write → validate → fix → create or edit → test.',
  input: z.object({
    id: n8nId('workflow'),
    payload: NamedObject.optional().describe('JSON body (POST…) or query (GET) to send; a chat message for Chat triggers'),
    trigger: z.string().optional().describe('Which trigger node to call, by name, if there are several'),
    waitSeconds: z.number().int().min(1).max(110).default(30).describe('How long to wait for the execution to finish'),
    cases: z
      .array(TestCase)
      .min(1)
      .max(MAX_CASES)
      .optional()
      .describe(
        'Instead of payload: several runs, one after the other, each with its payload and what must hold (as save_workflow_test takes them, ' +
          'nothing saved); answered per case: passed, or what did not hold, with its verdict and execution',
      ),
  }),
  // A run does whatever the workflow does, again each time: neither harmless nor repeatable.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  view: true,
  checkWith: 'list_executions',
  alsoNeeds: ['executions:read'],
  timeoutMs: 120_000,
  runsLong: () => true,
  async run({ id: workflowId, payload, trigger, waitSeconds, cases }, n8n, ctx) {
    if (!cases) return (await runWorkflowTest(n8n, ctx, { workflowId, payload: payload ?? {}, trigger, waitSeconds })).answer;
    if (payload) throw new ToolError('Give a payload or cases, not both: each case carries its own payload.');
    const workflow = await n8n.get<Workflow>(workflowPath(workflowId));
    // A case without a trigger of its own calls the one the call names.
    const { results, draft } = await runCases(n8n, ctx, workflowId, trigger === undefined ? cases : cases.map((c) => ({ trigger, ...c })));
    return { workflow: { id: workflowId, name: workflow.name, ...(draft ? { draft } : {}) }, passed: results.every((r) => r.passed), cases: results };
  },
});

/** What a run answered, as a test case judges it (test_workflow's answer, and the trigger's answer whole). */
export interface RunOutcome {
  status: number;
  body: unknown;
  execution: { status?: string; verdict?: string; failed?: unknown; nodes?: Pick<NodeSummary, 'node' | 'items' | 'outputs'>[] };
}

/** What does not hold of a run, one sentence each: none when the case passes. Pure. */
export function judgeRun(expect: TestCase['expect'], run: RunOutcome): string[] {
  const failures: string[] = [];
  if (expect.status !== undefined && run.status !== expect.status) failures.push(`the trigger answered HTTP ${run.status}, not ${expect.status}`);
  for (const [pointer, wanted] of Object.entries(expect.body ?? {})) {
    const found = valueAt(run.body, pointer);
    if (JSON.stringify(found) !== JSON.stringify(wanted)) {
      failures.push(`the answer's ${pointer || 'body'} is ${found === undefined ? 'missing' : JSON.stringify(found)}, not ${JSON.stringify(wanted)}`);
    }
  }
  for (const [node, wanted] of Object.entries(expect.items ?? {})) {
    const ran = run.execution.nodes?.find((n) => n.node === node);
    const count = ran ? itemsPutOut(ran) : 0;
    if (count !== wanted)
      failures.push(`"${node}" put out ${ran ? `${count} item${count === 1 ? '' : 's'}` : 'nothing (it did not run)'}, not ${String(wanted)}`);
  }
  if (expect.noFailedNode && (run.execution.status !== 'success' || run.execution.failed)) {
    failures.push(`the run did not succeed: ${run.execution.verdict ?? run.execution.status ?? 'no execution found'}`);
  }
  return failures;
}

export interface TestResult {
  name: string;
  passed: boolean;
  failures: string[];
  /** The execution the run made, to read with get_execution. */
  execution?: string;
  /** The version of the workflow that ran: the published one (on an n8n with drafts, maybe not the saved one). */
  ranVersionId?: string | null;
  verdict?: string;
  /** What the trigger answered: its HTTP status and its body (clipped). */
  response?: { status: number; body: unknown };
}

/**
 * Runs test cases one after the other, each as test_workflow runs the workflow, and judges each run. A
 * case that cannot run (no time left, the trigger refused) fails with the reason. `draft` says, as a
 * run said it, that the saved version is a draft the runs did not run.
 */
export async function runCases(
  n8n: N8nClient,
  ctx: N8nToolContext,
  workflowId: string,
  cases: readonly TestCase[],
): Promise<{ results: TestResult[]; draft?: string }> {
  const results: TestResult[] = [];
  let draft: string | undefined;
  for (const [i, test] of cases.entries()) {
    const name = test.name ?? `case ${i + 1}`;
    try {
      const { answer, responseBody } = await runWorkflowTest(n8n, ctx, {
        workflowId,
        payload: test.payload ?? {},
        trigger: test.trigger,
        waitSeconds: test.waitSeconds,
      });
      draft ??= answer.workflow.draft;
      const execution = answer.execution as RunOutcome['execution'] & { id?: string };
      const failures = judgeRun(test.expect, { status: answer.trigger.status, body: responseBody, execution });
      results.push({
        name,
        passed: failures.length === 0,
        failures,
        ...(execution.id ? { execution: execution.id } : {}),
        verdict: execution.verdict,
        ranVersionId: answer.workflow.ranVersionId,
        response: { status: answer.trigger.status, body: answer.trigger.response },
      });
    } catch (error) {
      results.push({ name, passed: false, failures: [`it could not run: ${messageOf(error)}`] });
    }
  }
  return { results, ...(draft ? { draft } : {}) };
}

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
async function runWorkflowTest(n8n: N8nClient, ctx: N8nToolContext, { workflowId, payload, trigger, waitSeconds }: RunRequest) {
  const workflow = await n8n.get<Workflow>(workflowPath(workflowId));
  const wasActive = workflow.active === true;
  // An active workflow runs its published version, which may not be the saved one (n8n with drafts).
  const { versionId, liveVersionId, draft } = publishingOf(workflow);
  const nodes = wasActive ? liveVersionOf(workflow).nodes : (workflow.nodes ?? []);
  const node = callableTrigger(nodes, trigger);
  // The names of the nodes' outputs, for the answer to label them (an IF's true and false).
  const outputNames = outputNamesOf(nodes, await catalogForNodes(new Catalog(ctx.env.SPECS), nodes));
  const url = triggerUrl(ctx.connection.apiBase.replace(/\/api\/v1$/, ''), node);
  await ctx.beginSideEffect();
  const activation: Activation = { claimed: false };
  const { ran, cleaned: restored } = await runWithCleanUp(
    ctx,
    RESTORE_MS,
    async ({ signal, stopBy }) => {
      const run = n8n.withSignal(signal);
      await activateForTheRun(run, ctx, workflowId, activation);
      return runTest({ n8n: run, signal, stopBy, workflowId, node, url, payload, waitMs: waitSeconds * 1000, outputNames });
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
async function activateForTheRun(n8n: N8nClient, ctx: N8nToolContext, workflowId: string, activation: Activation): Promise<void> {
  const history = await historyFor(ctx);
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
  ctx: N8nToolContext,
  workflowId: string,
  activation: Activation,
): Promise<{ ok: true } | { ok: false; warning: string }> {
  try {
    return await inTurn(ctx, workflowId, 'test_workflow: deactivating it after a run', async () => {
      const { stood, others } = await (await historyFor(ctx)).endActivationClaim(workflowId, ctx.callId);
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
  outputNames: OutputNames;
}

/** Calls the trigger and waits for the execution of this run. */
async function runTest({ n8n, signal, stopBy, workflowId, node, url, payload, waitMs, outputNames }: TestRun) {
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
      ? report(found.execution, node, found.identifiedBy, outputNames)
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

/**
 * A run that succeeded though nodes it leads to did not run, in words: a chain that stopped (a node
 * that put out no items) first, then nodes no item reached for another reason, then branches not
 * taken, which are how the workflow was written to go.
 */
function stoppedVerdict(status: string, { stops, didNotRun }: ItemsStopped): string {
  const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(', ');
  const branches = stops.filter((stop) => stop.kind === 'branch not taken');
  const unexplained = didNotRun.filter((node) => !stops.some((stop) => stop.didNotRun.includes(node)));
  const wrong = [
    ...stops.filter((stop) => stop.kind === 'no items').map((stop) => `the chain stopped: ${stopText(stop)}`),
    ...(unexplained.length ? [`no item reached ${quoted(unexplained)}`] : []),
  ];
  const taken = branches.length ? `${branches.length > 1 ? 'branches' : 'a branch'} not taken: ${branches.map(stopText).join('; ')}` : '';
  if (wrong.length === 0) return `${status}; ${taken}`;
  return `${status}, but ${wrong.join('; ')}${taken ? `; ${taken}` : ''}`;
}

/**
 * The run as the answer tells it: a verdict first, then the failure (node, error, the items it was
 * given) or where the items stopped, the path the run took, and per node its counts and a sample.
 */
function report(execution: Execution, trigger: TriggerNode, identifiedBy: 'mark' | 'order', outputNames: OutputNames) {
  const samples = { trigger: trigger.name, hideHeaders: [RUN_HEADER], outputNames };
  const status = execution.status ?? (execution.finished ? 'success' : 'error');
  const failed = failureOf(execution, samples);
  // A run paused at a Wait node has not reached the nodes after it yet: that is not where its items stopped.
  const stopped = failed || status === 'waiting' ? undefined : whereItemsStopped(execution, trigger.name, outputNames);
  const verdict = failed
    ? `failed: "${failed.node}" stopped the run: ${failed.error}`
    : status === 'waiting'
      ? waitingText(execution)
      : stopped?.didNotRun.length
        ? stoppedVerdict(status, stopped)
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
    ...(stopped?.stops.length ? { stops: stopped.stops } : {}),
    ...(stopped?.didNotRun.length ? { didNotRun: stopped.didNotRun } : {}),
    path: runPath(execution),
    nodes: nodeSummaries(execution, samples),
  };
}
