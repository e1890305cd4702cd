import type { CallToolResult, InputRequests } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';
import { hasOwn } from '../lib/ownKeys';
import { tooLargeForMessage } from '../queues/callStorage';
import { callerOf, type ToolCallMessage } from '../queues/message';

/** The tasks extension's identifier (SEP-2663), in capabilities and in errors. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How long a task's record is kept after it was last updated, and how often a client should poll. */
export const TASK_TTL_MS = 60 * 60 * 1000;
const TASK_POLL_INTERVAL_MS = 500;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error a task ended with (status "failed"). */
interface TaskError {
  code: number;
  message: string;
}

/** What one run of a task's tool came to, as the queue consumer reports it. */
export type TaskOutcome =
  { kind: 'result'; result: CallToolResult } | { kind: 'input_required'; inputRequests: InputRequests } | { kind: 'error'; error: TaskError };

/** A task as its Durable Object keeps it. */
export interface TaskRecord {
  taskId: string;
  /** The id of the principal that created it: the only one it answers. */
  owner: string;
  /**
   * That principal whole, whose scopes its runs have (what a tool may show depends on them). Records
   * made before it was kept lack it: their runs get no scopes, the narrowest answer.
   */
  caller?: Principal;
  tool: string;
  /** Absent when too large for a queue message: the task's object keeps them beside the record (src/queues/callStorage.ts). */
  arguments?: Record<string, unknown>;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** The run the task is waiting on; a result for any other run is ignored. */
  callId: string;
  /** When the current run must have answered, and how long each run may take. */
  deadline: number;
  timeoutMs: number;
  result?: CallToolResult;
  error?: TaskError;
  /** While input_required: what the client still has to answer. */
  inputRequests?: InputRequests;
  /** Every answer the client gave, handed to the tool's next run. */
  inputResponses: Record<string, unknown>;
}

export const isTerminal = (status: TaskStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** The task on the wire (tasks/get, notifications): flat, timestamps as ISO strings, no requestState. */
export function taskView(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
    ...(task.status === 'input_required' && task.inputRequests ? { inputRequests: task.inputRequests } : {}),
    ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
    ...(task.status === 'failed' && task.error ? { error: task.error } : {}),
  };
}

/** Applies a run's outcome to a working task. */
export function settle(task: TaskRecord, outcome: TaskOutcome, now: number): TaskRecord {
  const base = { ...task, lastUpdatedAt: now, statusMessage: undefined, inputRequests: undefined };
  switch (outcome.kind) {
    case 'result':
      return { ...base, status: 'completed', result: outcome.result };
    case 'error':
      return { ...base, status: 'failed', error: outcome.error };
    case 'input_required':
      return { ...base, status: 'input_required', inputRequests: outcome.inputRequests };
  }
}

/**
 * A client's tasks/update: answers for outstanding input requests are kept, others ignored. When the
 * last one is answered the task is working again, on a new run (`nextCallId`), which the caller queues.
 */
export function applyInput(task: TaskRecord, responses: Record<string, unknown>, now: number, nextCallId: string): TaskRecord {
  if (task.status !== 'input_required' || !task.inputRequests) return task;
  const requests = task.inputRequests;
  // Plain objects (Object.fromEntries makes "__proto__" an own key like any other): a task crosses RPC, which refuses objects without a prototype.
  const answered = Object.fromEntries(Object.entries(responses).filter(([key]) => hasOwn(requests, key)));
  if (Object.keys(answered).length === 0) return task;
  const outstanding = Object.fromEntries(Object.entries(requests).filter(([key]) => !hasOwn(answered, key)));
  const inputResponses = { ...task.inputResponses, ...answered };
  if (Object.keys(outstanding).length > 0) return { ...task, inputRequests: outstanding, inputResponses, lastUpdatedAt: now };
  return { ...task, status: 'working', inputRequests: undefined, inputResponses, callId: nextCallId, deadline: now + task.timeoutMs, lastUpdatedAt: now };
}

/**
 * The queue message for a task's current run: its input in it, or, when that is too large for a
 * message, a note that the task's object has it.
 */
export function runMessage(task: TaskRecord): ToolCallMessage {
  const input = { arguments: task.arguments ?? {}, ...(Object.keys(task.inputResponses).length > 0 ? { inputResponses: task.inputResponses } : {}) };
  return {
    v: 2,
    taskId: task.taskId,
    callId: task.callId,
    tool: task.tool,
    ...(task.arguments === undefined || tooLargeForMessage(input) ? { inputStored: true } : input),
    caller: task.caller ? callerOf(task.caller) : { id: task.owner, subject: task.owner, scopes: [] },
    deadline: task.deadline,
  };
}
