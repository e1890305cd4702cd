/**
 * Finding the execution a call started, among every other run of the same workflow: the call marks its
 * request (trigger.ts: a Webhook's RUN_HEADER, a Chat's session id), and of the workflow's executions
 * numbered after n8n's newest one before the call, the first finished (or waiting) one that carries the mark is it.
 * test_workflow and try_nodes both find their run this way.
 */
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { own } from '../../lib/ownKeys';
import { ToolError } from '../tool';
import { withoutHostDetails, type Execution } from './executionReport';
import { messageOf } from './runWithCleanUp';
import { isMarkedRun, triggerRequest, type TriggerNode } from './trigger';

const POLL_MS = 500;
const LIST_LIMIT = 100;

interface ExecutionPage {
  data: Execution[];
  nextCursor?: string | null;
}

const executionNumber = (id: string | number) =>
  Number(id); /** Done, or paused at a Wait node (n8n keeps a wait of a minute or more as a `waiting` execution): either is what the run came to. */
const isSettled = (e: Execution) => e.status === 'waiting' || isFinishedRun(e);

/**
 * The number of n8n's newest execution (of any workflow), 0 when it has none: a run started after it
 * is numbered above it (ids count up across workflows), which bounds both the listing and the reading
 * of ids one by one (waitingExecutions) — holes left by deleted executions lie below it.
 */
export async function newestExecutionId(n8n: N8nClient): Promise<number> {
  const page = await n8n.get<ExecutionPage>('/executions', { query: { limit: 1 } });
  const newest = page.data[0];
  return newest === undefined ? 0 : executionNumber(newest.id);
}

/** Which trigger of which workflow a run calls, at what URL, with what, marked how. */
export interface TriggerCall {
  workflowId: string;
  url: URL;
  node: TriggerNode;
  payload: Record<string, unknown>;
  runId: string;
}

/**
 * Calls the trigger at `url` with `payload`, marked with `runId` (triggerRequest), through the client
 * (whose gate sees the run first): its HTTP status and body, whole (an answer clips it). A redirect is
 * answered, not followed (where a workflow sends its caller is not a place this server fetches).
 */
export async function callTrigger(n8n: N8nClient, { workflowId, url, node, payload, runId }: TriggerCall, signal: AbortSignal) {
  let response: Response;
  let body: string;
  try {
    response = await n8n.trigger(workflowId, url, { ...triggerRequest(url, node, payload, runId), signal });
    body = await response.text();
  } catch (error) {
    if (signal.aborted)
      throw new ToolError(`The trigger "${node.name}" did not answer before the run had to stop (cancelled, or its time was up): ${messageOf(error)}`);
    throw error;
  }
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON (a form's HTML answer): keep the text
  }
  return { url: url.pathname, status: response.status, body: parsed };
}

/** The first item the trigger put out in an execution. */
const triggerItem = (execution: Execution, trigger: string): unknown =>
  own(execution.data?.resultData?.runData ?? {}, trigger)?.[0]?.data?.main?.[0]?.[0]?.json;

export interface OwnRun {
  n8n: N8nClient;
  workflowId: string;
  /** The number of n8n's newest execution before the call (newestExecutionId). */
  after: number;
  /** Epoch ms after which to stop looking. */
  until: number;
  signal: AbortSignal;
  /** The trigger that was called, the mark the call carried and the payload it sent. */
  trigger: TriggerNode;
  runId: string;
  payload: Record<string, unknown>;
}

/**
 * This run's execution, once finished or waiting: among the workflow's executions newer than `after`,
 * the one whose trigger item carries the run's mark (each settled one is read once). A trigger that keeps
 * no mark (a form) gets the oldest settled one, said in `identifiedBy`. Null when none has by `until`, or
 * once `signal` is aborted.
 */
export async function waitForOwnExecution({
  n8n,
  workflowId,
  after,
  until,
  signal,
  trigger,
  runId,
  payload,
}: OwnRun): Promise<{ execution: Execution; identifiedBy: 'mark' | 'order' } | null> {
  const read = new Set<string>();
  const waiting = waitingExecutions(n8n, workflowId, after);
  /** The run's execution among these candidates (each settled one read once), or null. */
  const ours = async (candidates: Execution[]) => {
    for (const candidate of candidates) {
      const id = String(candidate.id);
      if (read.has(id) || !isSettled(candidate)) continue;
      const execution = withoutHostDetails(await n8n.get<Execution>(`/executions/${id}`, { query: { includeData: true } }));
      read.add(id);
      const marked = isMarkedRun(trigger, triggerItem(execution, trigger.name), runId, payload);
      if (marked !== false) return { execution, identifiedBy: marked === undefined ? ('order' as const) : ('mark' as const) };
    }
    return null;
  };
  while (Date.now() < until && !signal.aborted) {
    try {
      const listed = await newerExecutions(n8n, workflowId, after);
      // The waiting ones the list leaves out are looked for only when no listed one is this run's.
      const found = (await ours(listed)) ?? (await ours(await waiting(listed)));
      if (found) return found;
    } catch (error) {
      if (signal.aborted) return null;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** Execution ids read one by one per poll, looking for waiting executions n8n's list leaves out. */
const PROBES_PER_POLL = 10;
/** Ids not there in a row after which the ones above are taken as not made yet. */
const MISSING_IN_A_ROW = 3;

/**
 * The workflow's waiting executions numbered above `after` that n8n's list leaves out: n8n 1.x keeps a
 * run paused at a Wait node among its active executions, which its list excludes (even asked for
 * `status=waiting`), though reading it by id answers it. So ids past `after` are read one by one (ids
 * count up across all workflows), skipping those listed, up to a few in a row that are not there.
 */
function waitingExecutions(n8n: N8nClient, workflowId: string, after: number): (listed: Execution[]) => Promise<Execution[]> {
  const done = new Set<number>();
  return async (listed) => {
    // A listed execution that has not finished may leave the list when it starts waiting: only finished ones are done with.
    const listedNow = new Set(listed.map((e) => executionNumber(e.id)));
    for (const e of listed) if (isFinishedRun(e)) done.add(executionNumber(e.id));
    const found: Execution[] = [];
    let probes = 0;
    let missing = 0;
    for (let n = after + 1; probes < PROBES_PER_POLL && missing < MISSING_IN_A_ROW; n++) {
      if (done.has(n) || listedNow.has(n)) continue;
      probes++;
      const execution = await n8n.get<Execution>(`/executions/${n}`).catch((error: unknown) => {
        if (error instanceof N8nApiError && error.status === 404) return null;
        throw error;
      });
      // Not there: not made yet, or made and deleted since (another caller's try_nodes): a few in a row end the look.
      missing = execution === null ? missing + 1 : 0;
      if (execution === null) continue;
      // Another workflow's, or finished (then listed, or pruned): never this run's waiting one.
      if (execution.workflowId !== workflowId || isFinishedRun(execution)) done.add(n);
      else if (execution.status === 'waiting') {
        done.add(n);
        found.push(execution);
      }
    }
    return found;
  };
}

const isFinishedRun = (e: Execution) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting' && Boolean(e.stoppedAt);

/**
 * The workflow's executions numbered above `after`, oldest first, page by page; with `status`, only
 * those (n8n's list leaves running executions out unless asked for them).
 */
async function newerExecutions(n8n: N8nClient, workflowId: string, after: number, status?: string): Promise<Execution[]> {
  const newer: Execution[] = [];
  let cursor: string | undefined;
  do {
    const page = await n8n.get<ExecutionPage>('/executions', { query: { workflowId, status, limit: LIST_LIMIT, cursor } });
    const beyond = page.data.filter((e) => !(executionNumber(e.id) <= after));
    newer.push(...beyond);
    cursor = beyond.length === page.data.length ? (page.nextCursor ?? undefined) : undefined;
  } while (cursor);
  return newer.reverse();
}

/** The ids of every execution of a workflow, finished or still running, oldest first. */
export async function executionIdsOf(n8n: N8nClient, workflowId: string): Promise<string[]> {
  const [listed, running] = await Promise.all([newerExecutions(n8n, workflowId, 0), newerExecutions(n8n, workflowId, 0, 'running')]);
  return [...new Set([...listed, ...running].map((e) => String(e.id)))].sort((a, b) => executionNumber(a) - executionNumber(b));
}
