import type { CallToolResult, JSONRPCMessage, ServerNotification } from '@modelcontextprotocol/server';
import type { CallRequest } from '../server/runTool';
import { onAbort } from '../lib/abort';
import { formatError } from '../server/formatResult';
import { forgetCall } from '../queues/callStorage';

/** A queued call the session still owes an answer, as kept in DO storage. */
export interface PendingCall {
  callId: string;
  tool: string;
  requestId: string | number;
  deadline: number;
  /** The Streamable HTTP stream the answer goes on, found again after the object is evicted. */
  streamId?: string;
  /** Its input is kept apart in the object's storage (src/queues/callStorage.ts), to delete with the call. */
  inputStored?: true;
  /** A run of it began to change something (ToolContext.beginSideEffect): a later attempt must not repeat it. */
  sideEffectBegan?: true;
}

/**
 * Sends a message for a call whose waiter is gone — the object was evicted while the call was
 * pending — on the call's own stream, or stores it for the client's resume.
 */
export type OrphanSender = (call: PendingCall, message: JSONRPCMessage) => Promise<void>;

/** What became of a result handed to `deliver`. */
export type Delivery = 'delivered' | 'ignored';

interface Waiter {
  resolve(result: CallToolResult): void;
  request: CallRequest;
}

const PREFIX = 'pending:';

/** How a pending call was answered; `failed`: it could not be queued, or the session ended first. */
type Outcome = 'delivered' | 'timedOut' | 'cancelled' | 'failed';

/**
 * Seed 001's PendingCallsManager on Durable Object storage: call id → tool, request id, deadline.
 * Each call is answered exactly once — by its result, its deadline, its cancellation or the session's
 * end — and whatever arrives for it afterwards is ignored.
 */
export class PendingCalls {
  private readonly waiters = new Map<string, Waiter>();

  constructor(
    private readonly storage: DurableObjectStorage,
    /** Called whenever the earliest deadline may have changed. */
    private readonly onDeadlinesChanged: () => Promise<void>,
    private readonly sendOrphaned: OrphanSender,
  ) {}

  /** Records the call, then waits for its answer. `send` hands it to the queue, unless the call is already cancelled. */
  async start(call: PendingCall, request: CallRequest, send: () => Promise<void>): Promise<CallToolResult> {
    await this.storage.put(PREFIX + call.callId, call);
    await this.onDeadlinesChanged();
    const answer = new Promise<CallToolResult>((resolve) => this.waiters.set(call.callId, { resolve, request }));
    onAbort(request.signal, () => void this.settle(call.callId, 'cancelled', formatError(new Error('Cancelled'))));
    // Cancelled before it was queued (in the same batch, or while it was recorded): nothing is sent.
    if (request.signal.aborted) return answer;
    try {
      await send();
    } catch (error) {
      await this.settle(call.callId, 'failed', formatError(new Error(`Could not queue ${call.tool}: ${String(error)}`)));
    }
    return answer;
  }

  /** A result from the consumer. Only the first answer for a pending call counts. */
  async deliver(callId: string, result: CallToolResult): Promise<Delivery> {
    return (await this.settle(callId, 'delivered', result)) ? 'delivered' : 'ignored';
  }

  /** A notification from the consumer (progress, log) relayed on the call's own stream. */
  async relay(callId: string, notification: ServerNotification): Promise<boolean> {
    const waiter = this.waiters.get(callId);
    if (waiter) {
      await waiter.request.notify(notification);
      return true;
    }
    const pending = await this.storage.get<PendingCall>(PREFIX + callId);
    if (!pending) return false;
    await this.sendOrphaned(pending, { jsonrpc: '2.0', ...notification });
    return true;
  }

  /** Answers every call past its deadline with a timeout error; how many it answered. */
  async expire(now: number): Promise<number> {
    let answered = 0;
    for (const call of await this.list()) {
      if (call.deadline <= now) {
        if (await this.settle(call.callId, 'timedOut', formatError(new Error(`${call.tool} timed out: no result before its deadline`)))) answered++;
      }
    }
    return answered;
  }

  /** The session is ending: every pending call is answered with an error and forgotten. */
  async failAll(reason: string): Promise<void> {
    for (const call of await this.list()) await this.settle(call.callId, 'failed', formatError(new Error(reason)));
  }

  /** The requests this instance is waiting to answer with a queued call's result. */
  waitingRequestIds(): Set<string | number> {
    return new Set([...this.waiters.values()].map((waiter) => waiter.request.requestId));
  }

  async nextDeadline(): Promise<number | undefined> {
    const deadlines = (await this.list()).map((c) => c.deadline);
    return deadlines.length ? Math.min(...deadlines) : undefined;
  }

  async has(callId: string): Promise<boolean> {
    return (await this.get(callId)) !== undefined;
  }

  /** The call, while it is still owed an answer. */
  get(callId: string): Promise<PendingCall | undefined> {
    return this.storage.get<PendingCall>(PREFIX + callId);
  }

  /** Records that a run of the call began its side effect; false once the call is answered. */
  async markSideEffect(callId: string): Promise<boolean> {
    const pending = await this.get(callId);
    if (!pending) return false;
    await this.storage.put(PREFIX + callId, { ...pending, sideEffectBegan: true } satisfies PendingCall);
    return true;
  }

  async list(): Promise<PendingCall[]> {
    return [...(await this.storage.list<PendingCall>({ prefix: PREFIX })).values()];
  }

  /**
   * Removes the call and answers its waiter. Returns false when the call was already answered (a
   * duplicate delivery, a result after a timeout or a cancellation).
   */
  private async settle(callId: string, outcome: Outcome, result: CallToolResult): Promise<boolean> {
    const pending = await this.storage.get<PendingCall>(PREFIX + callId);
    if (!pending) return false;
    await this.storage.delete(PREFIX + callId);
    if (pending.inputStored) await forgetCall(this.storage, callId);
    const waiter = this.waiters.get(callId);
    this.waiters.delete(callId);
    if (waiter) waiter.resolve(result);
    // A cancelled request gets no response (MCP), with or without its waiter.
    else if (outcome !== 'cancelled') await this.sendOrphaned(pending, { jsonrpc: '2.0', id: pending.requestId, result });
    await this.onDeadlinesChanged();
    return true;
  }
}
