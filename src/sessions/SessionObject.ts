import { DurableObject } from 'cloudflare:workers';
import type { Principal } from '../auth/principal';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest, JSONRPCResponse, McpServer, ServerNotification } from '@modelcontextprotocol/server';
import { idleTtlMs } from '../config';
import type { Env } from '../env';
import { observe } from '../observability/events';
import { sessionNotFound, toErrorResponse } from '../http/errors';
import type { JsonRpcErrorResponse } from '../protocol/jsonrpc';
import type { TransportKind } from './kinds';
import { PRINCIPAL_HEADER } from './handoff/handoff';
import { LEGACY_STREAM_ID, LegacySseTransport } from './sse/SseTransport';
import { OneShotTransport } from './query/QueryTransport';
import { replayInitialize } from './restore';
import { StreamSockets } from './handoff/StreamSockets';
import { STANDALONE_STREAM_ID, StreamableHttpTransport, type StreamableSessionState } from './streamable/StreamableHttpTransport';
import { DurableEventStore } from './streamable/DurableEventStore';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ONESHOT_STREAM_ID, PARKED, queryReply, queryResponseEvent, serveQueryRequest } from './query/queryMessages';
import { jsonRpcError } from '../protocol/jsonrpc';
import { ErrorCode } from '../protocol/jsonrpc';
import { callTimeoutMs, executionPolicy } from '../server/policy';
import { runDirect, toolContext, type CallRequest } from '../server/runTool';
import { keepInput, loadInput, tooLargeForMessage, type QueuedCall } from '../queues/callStorage';
import { callerOf } from '../queues/message';
import type { ToolDefinition } from '../tools/tool';
import { createMcpServer, type ToolExecutor } from '../server/createServer';
import { PendingCalls, type Delivery, type PendingCall } from './PendingCalls';

/** Everything needed to carry a session on after eviction; kept under one storage key. */
export interface SessionRecord extends StreamableSessionState {
  id: string;
  transport: TransportKind;
  /** Who created the session: the only principal it answers (src/auth). */
  principal: Principal;
  createdAt: number;
  /** Idle deadline; the alarm closes the session when it passes. */
  expiresAt: number;
}

type Live =
  | { kind: 'streamable-http'; server: McpServer; transport: StreamableHttpTransport }
  | { kind: 'sse'; server: McpServer; transport: LegacySseTransport };

const RECORD_KEY = 'session';
const ONESHOT_KEY = 'oneshot';

/** A parked query-mode request, and its answer once it came while the Worker was not yet there. */
interface OneShotRecord {
  principal: Principal;
  request: JSONRPCRequest;
  reply?: unknown;
}

/**
 * One MCP session. Owns the SDK server and the transport state; persists what it needs in its own
 * storage so an evicted object restores itself; closes itself after the idle TTL (alarm).
 *
 * It holds no client stream while it waits: the Worker holds them, and this object sends their
 * events over hibernatable WebSockets (src/sessions/handoff/StreamSockets.ts), so an idle client's object
 * sleeps, and wakes rebuilt from storage when a result, a request or its alarm arrives.
 */
export class SessionObject extends DurableObject<Env> {
  private record: SessionRecord | null | undefined;
  private live: Live | undefined;
  /** A server being set up; requests and late results arriving meanwhile share it. */
  private starting: Promise<Live> | undefined;
  private readonly pending: PendingCalls;
  private readonly sockets: StreamSockets;
  /** Set while a query-mode request is served: its tool call was queued. */
  private oneShotQueued: (() => void) | undefined;
  /** Who sent the request being served; the SDK server's tool guard reads it. */
  private caller: Principal | undefined;
  private readonly currentCaller = (): Principal => {
    if (!this.caller) throw new Error('no caller: the session object served a request it did not admit');
    return this.caller;
  };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sockets = new StreamSockets(ctx);
    this.pending = new PendingCalls(
      ctx.storage,
      () => this.scheduleAlarm(),
      (call, message) => this.sendOrphaned(call, message),
    );
  }

  /** Result of a queued call, from the queue consumer (or the dead-letter consumer). */
  async deliverResult(callId: string, result: CallToolResult): Promise<Delivery> {
    // A result for a session that is gone is dropped without writing anything into the empty object.
    // The record is cached after the first load, so a live session pays no extra read here.
    if (!(await this.load()) && !(await this.pending.has(callId))) return 'ignored';
    const delivery = await this.pending.deliver(callId, result);
    // An answer is activity: the client acts on it next, so the idle clock starts again here.
    if (delivery === 'delivered') await this.touch();
    return delivery;
  }

  /** A queued call as the consumer picks it up: null once answered; its input, if asked for, from this object's storage. */
  async queuedCall(callId: string, withInput: boolean): Promise<QueuedCall | null> {
    const pending = await this.pending.get(callId);
    if (!pending) return null;
    const input = withInput ? await loadInput(this.ctx.storage, callId) : undefined;
    return { input, sideEffectBegan: pending.sideEffectBegan === true };
  }

  /** A run of a queued call is about to change something (ToolContext.beginSideEffect); false once the call is answered. */
  async beginSideEffect(callId: string): Promise<boolean> {
    return this.pending.markSideEffect(callId);
  }

  /** Whether a queued call is still owed an answer (the consumer stops a run nobody waits for). */
  async isPending(callId: string): Promise<boolean> {
    return this.pending.has(callId);
  }

  /** A queued tool's progress or log message, relayed on its call's stream. */
  async relayNotification(callId: string, notification: ServerNotification): Promise<boolean> {
    return this.pending.relay(callId, notification);
  }

  /** Direct tools run here; queued ones are recorded as pending and sent to the tool-calls queue. */
  private executor(sessionId: string): ToolExecutor {
    return (tool, args, request) => this.execute(sessionId, tool, args, request);
  }

  private execute(sessionId: string, tool: ToolDefinition, args: unknown, request: CallRequest): Promise<CallToolResult> {
    if (executionPolicy(tool, this.env) === 'direct') return runDirect(tool, args, toolContext(this.env, tool, sessionId, this.currentCaller(), request));
    const callId = crypto.randomUUID();
    const deadline = Date.now() + callTimeoutMs(tool, this.env);
    const { progressToken } = request;
    const streamId = this.live?.kind === 'streamable-http' ? this.live.transport.streamOf(request.requestId) : undefined;
    const input = { arguments: args as Record<string, unknown> };
    const inputStored = tooLargeForMessage(input);
    const call: PendingCall = { callId, tool: tool.name, requestId: request.requestId, deadline, ...(streamId === undefined ? {} : { streamId }), ...(inputStored ? { inputStored } : {}) };
    return this.pending.start(call, request, async () => {
      if (inputStored) await keepInput(this.ctx.storage, callId, input);
      await this.env.TOOL_CALLS.send({
        v: 2,
        sessionId,
        callId,
        tool: tool.name,
        ...(inputStored ? { inputStored } : input),
        caller: callerOf(this.currentCaller()),
        deadline,
        ...(progressToken === undefined ? {} : { progressToken }),
      });
      // Nothing here works on the call now: its stream goes to the Worker, and this object may sleep.
      if (streamId !== undefined && this.live?.kind === 'streamable-http') this.live.transport.parkIfWaiting(streamId);
      this.oneShotQueued?.();
    });
  }

  /**
   * POST/GET/DELETE /mcp. `create` is set by the Worker for an initialize without a session id;
   * `parsedBody` is the POST body the Worker already parsed and validated.
   */
  async streamableHttp(request: Request, sessionId: string, create: boolean, principal: Principal, parsedBody?: unknown): Promise<Response> {
    try {
      if (create) {
        if (await this.load()) throw sessionNotFound();
        this.caller = principal;
      } else if (!(await this.admits(principal, 'streamable-http'))) {
        throw sessionNotFound();
      }
      const live = await this.streamable(sessionId);
      const response = await live.transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
      await this.touch();
      return response;
    } catch (error) {
      return toErrorResponse(error);
    }
  }

  /**
   * The Worker's side of a client stream, as a WebSocket (src/sessions/handoff/handoff.ts): `/stream` picks
   * up a handed-off Streamable HTTP stream, `/legacy` opens a legacy SSE session's one stream.
   */
  override async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const principal = JSON.parse(request.headers.get(PRINCIPAL_HEADER) ?? 'null') as Principal | null;
      if (request.headers.get('upgrade') !== 'websocket' || !principal) return new Response('expected a WebSocket from the Worker', { status: 426 });
      if (url.pathname === '/legacy') return await this.openLegacySse(url.searchParams.get('session') ?? '', principal);
      if (url.pathname === '/stream') return await this.attachStream(url.searchParams.get('id') ?? '', url.searchParams.get('after') ?? undefined, principal);
      return new Response('not found', { status: 404 });
    } catch (error) {
      return toErrorResponse(error);
    }
  }

  /** Opens a socket for a handed-off stream: what it missed since the handoff first, then what comes. */
  private async attachStream(streamId: string, after: string | undefined, principal: Principal): Promise<Response> {
    if (streamId === ONESHOT_STREAM_ID) return this.attachOneShot(principal);
    const record = await this.load();
    if (record?.transport !== 'streamable-http' || record.principal?.id !== principal.id) return toErrorResponse(sessionNotFound());
    const client = this.sockets.open(streamId, after);
    for (const [id, message] of await new DurableEventStore(this.ctx.storage).eventsOn(streamId, after)) this.sockets.sendMessage(streamId, message, id);
    if (streamId !== STANDALONE_STREAM_ID && !(await this.stillAnswering(streamId))) this.sockets.close(streamId);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Whether a request stream still owes an answer: a queued call on it, or a request this instance serves. */
  private async stillAnswering(streamId: string): Promise<boolean> {
    if (this.live?.kind === 'streamable-http' && this.live.transport.isAnswering(streamId)) return true;
    return (await this.pending.list()).some((call) => call.streamId === streamId);
  }

  /** GET /sse (and /mcp/sse without a query): creates the session, whose stream the Worker holds. */
  private async openLegacySse(sessionId: string, principal: Principal): Promise<Response> {
    if (await this.load()) return toErrorResponse(sessionNotFound());
    this.caller = principal;
    const client = this.sockets.open(LEGACY_STREAM_ID);
    await this.save(this.newRecord(sessionId, 'sse', principal));
    const live = await this.legacy(sessionId);
    live.transport.announce(`/messages?sessionId=${sessionId}`);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** POST /messages?sessionId=…: hands validated messages to the session's SSE transport. */
  async postLegacyMessage(messages: JSONRPCMessage[], principal: Principal): Promise<Response> {
    const record = await this.load();
    if (!(await this.admits(principal, 'sse')) || !record) return toErrorResponse(sessionNotFound());
    if (!this.sockets.has(LEGACY_STREAM_ID)) {
      // The client's stream is gone: the session cannot answer any more.
      await this.terminate();
      return toErrorResponse(sessionNotFound());
    }
    const live = await this.legacy(record.id);
    for (const message of messages) {
      // Kept before it is served, so an instance woken later brings its server back to this client.
      if (isInitializeRequest(message)) await this.save({ ...record, initialized: true, initializeParams: message.params });
      live.transport.receive(message);
    }
    await this.touch();
    // No body: a body the client never reads would keep this object's response, and so the object, in flight.
    return new Response(null, { status: 202 });
  }

  /** A legacy SSE session's server, rebuilt (client's initialize replayed) in an instance that woke without it. */
  private async legacy(sessionId: string): Promise<Live & { kind: 'sse' }> {
    if (this.live?.kind === 'sse') return this.live;
    this.starting ??= this.startLegacy(sessionId).finally(() => (this.starting = undefined));
    return this.starting as Promise<Live & { kind: 'sse' }>;
  }

  private async startLegacy(sessionId: string): Promise<Live & { kind: 'sse' }> {
    const transport = new LegacySseTransport(sessionId, this.sockets);
    transport.onclose = () => void this.terminate();
    const server = createMcpServer(this.env, { execute: this.executor(sessionId), caller: this.currentCaller, era: 'sessions' });
    await server.connect(transport);
    if (this.record?.initializeParams) replayInitialize(transport.onmessage, this.record.initializeParams);
    const live = { kind: 'sse' as const, server, transport };
    this.live = live;
    return live;
  }

  /** The Worker let go of a stream (its client left). A legacy session ends with its one stream. */
  override async webSocketClose(socket: WebSocket): Promise<void> {
    const [tag] = this.ctx.getTags(socket);
    try {
      socket.close(1000, 'closed');
    } catch {
      // already closed
    }
    if (tag === LEGACY_STREAM_ID) await this.terminate();
    // A query's client left before its answer: nothing is owed to anyone, the late result is ignored.
    if (tag === ONESHOT_STREAM_ID) await this.ctx.storage.deleteAll();
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    await this.webSocketClose(socket);
  }

  /**
   * One /mcp/sse query-mode request, on a server that lives only for it, in an object addressed by a
   * throwaway id (queued results find their way back by it). Nothing outlives the request. When the
   * request waits on a queued call, the answer is `parked`: the Worker, which holds the client's
   * stream, picks the answer up over a socket, and this object may sleep until the result comes.
   */
  async oneShot(request: JSONRPCRequest, id: string, principal: Principal): Promise<JSONRPCMessage | JsonRpcErrorResponse | typeof PARKED> {
    this.caller = principal;
    const server = createMcpServer(this.env, { execute: this.executor(id), caller: this.currentCaller, era: 'sessions' });
    const transport = new OneShotTransport();
    await server.connect(transport);
    const queued = new Promise<typeof PARKED>((resolve) => (this.oneShotQueued = () => resolve(PARKED)));
    const answer = transport.initialize('mcp-sse-query').then((initialized) => serveQueryRequest(transport, request, initialized));
    const first = await Promise.race([answer, queued]).catch(async (error: unknown) => {
      await this.endOneShot(server);
      throw error;
    });
    if (first !== PARKED) {
      await this.endOneShot(server);
      return first;
    }
    await this.ctx.storage.put(ONESHOT_KEY, { principal, request } satisfies OneShotRecord);
    answer
      .catch(() => jsonRpcError(request.id, ErrorCode.InternalError, 'Internal error'))
      .then((reply) => this.answerOneShot(reply))
      .finally(() => server.close().catch(() => {}));
    return PARKED;
  }

  /** The query's answer: on the Worker's socket if it is there, else kept until it comes for it. */
  private async answerOneShot(reply: unknown): Promise<void> {
    const record = await this.ctx.storage.get<OneShotRecord>(ONESHOT_KEY);
    if (!record) return;
    if (this.sockets.send(ONESHOT_STREAM_ID, queryResponseEvent(reply, record.request.id))) {
      this.sockets.close(ONESHOT_STREAM_ID, 'answered');
      await this.ctx.storage.deleteAll();
    } else {
      await this.ctx.storage.put(ONESHOT_KEY, { ...record, reply } satisfies OneShotRecord);
    }
  }

  /** The Worker's socket for a parked query's answer (the answer at once if it is already there). */
  private async attachOneShot(principal: Principal): Promise<Response> {
    const record = await this.ctx.storage.get<OneShotRecord>(ONESHOT_KEY);
    if (record?.principal.id !== principal.id) return toErrorResponse(sessionNotFound());
    const client = this.sockets.open(ONESHOT_STREAM_ID);
    if ('reply' in record) await this.answerOneShot(record.reply);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Nothing outlives a query: not the server, the counters, nor the object's storage. */
  private async endOneShot(server: McpServer): Promise<void> {
    await server.close().catch(() => {});
    await this.ctx.storage.deleteAll();
  }

  /**
   * One alarm serves both deadlines: pending calls past theirs are answered with a timeout, and the
   * session closes once idle. Alarms can fire late or twice, so stored state decides.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    // A timeout answered now is activity too (the load harness found a session closed right after
    // answering its client's call with a timeout, when the idle deadline and the call's coincided).
    if ((await this.pending.expire(now)) > 0) await this.touch();
    const record = await this.load();
    if (!record) return;
    const streamOpen = this.sockets.has(LEGACY_STREAM_ID);
    let outcome: 'kept' | 'closed' = 'kept';
    if (record.expiresAt > now) {
      await this.scheduleAlarm();
    } else if (streamOpen || (await this.pending.nextDeadline()) !== undefined) {
      // A connected legacy SSE client is not idle, however long it waits between calls; nor is a
      // session waiting on a call (the load harness found sessions ended under their calls).
      await this.save({ ...record, expiresAt: now + idleTtlMs(this.env) });
    } else {
      await this.terminate();
      outcome = 'closed';
    }
    observe(this.env, { kind: 'alarm', outcome, ms: Date.now() - now, session: record.id });
  }

  private async streamable(sessionId: string): Promise<Live & { kind: 'streamable-http' }> {
    if (this.live?.kind === 'streamable-http') return this.live;
    this.starting ??= this.startStreamable(sessionId).finally(() => (this.starting = undefined));
    return this.starting as Promise<Live & { kind: 'streamable-http' }>;
  }

  private async startStreamable(sessionId: string): Promise<Live & { kind: 'streamable-http' }> {
    const transport = new StreamableHttpTransport(sessionId, this.ctx.storage, this.sockets, {
      onInitialized: (state) => this.save({ ...(this.record ?? this.newRecord(sessionId, 'streamable-http', this.currentCaller())), ...state }),
      onClosed: () => this.terminate(),
      waitingOnQueue: () => this.pending.waitingRequestIds(),
    });
    const server = createMcpServer(this.env, { execute: this.executor(sessionId), caller: this.currentCaller, era: 'sessions' });
    await server.connect(transport);
    if (this.record) transport.restore(sessionId, this.record);
    // Queued calls an evicted instance left pending are answered on their streams when they finish.
    for (const call of await this.pending.list()) if (call.streamId !== undefined) transport.adopt(call.requestId, call.streamId);
    const live = { kind: 'streamable-http' as const, server, transport };
    this.live = live;
    return live;
  }

  /**
   * A queued call's result or progress that arrived after the object was evicted (or hibernated).
   * Streamable HTTP sends it on the call's stream and keeps it in the event store for a resume; the
   * legacy stream's socket outlives the instance; a parked query's answer goes to its socket, or waits
   * for it (progress has nowhere to go in query mode).
   */
  private async sendOrphaned(call: PendingCall, message: JSONRPCMessage): Promise<void> {
    const record = await this.load();
    if (!record) {
      const query = await this.ctx.storage.get<OneShotRecord>(ONESHOT_KEY);
      if (query && 'id' in message && ('result' in message || 'error' in message)) await this.answerOneShot(queryReply(query.request, message as JSONRPCResponse));
      return;
    }
    // No request brought a caller to this instance: the session's own principal stands in.
    this.caller ??= record.principal;
    if (record.transport === 'sse') {
      await (await this.legacy(record.id)).transport.send(message).catch(() => {});
      return;
    }
    if (record.transport !== 'streamable-http' || call.streamId === undefined) return;
    const live = await this.streamable(record.id);
    live.transport.adopt(call.requestId, call.streamId);
    await live.transport.send(message, { relatedRequestId: call.requestId });
  }

  private newRecord(id: string, transport: TransportKind, principal: Principal): SessionRecord {
    const now = Date.now();
    return { id, transport, principal, createdAt: now, expiresAt: now + idleTtlMs(this.env), initialized: false };
  }

  /**
   * A session answers only the principal that created it, on its own transport; to anyone else it
   * does not exist (404), so a leaked session id is no way in.
   */
  private async admits(principal: Principal, transport: TransportKind): Promise<boolean> {
    const record = await this.load();
    // `?.`: records from before access control have no principal, and belong to nobody now.
    if (record?.transport !== transport || record.principal?.id !== principal.id) return false;
    this.caller = principal;
    return true;
  }

  private async load(): Promise<SessionRecord | null> {
    if (this.record === undefined) this.record = (await this.ctx.storage.get<SessionRecord>(RECORD_KEY)) ?? null;
    return this.record;
  }

  private async save(record: SessionRecord): Promise<void> {
    const alarmMoves = record.expiresAt !== this.record?.expiresAt;
    this.record = record;
    await this.ctx.storage.put(RECORD_KEY, record);
    if (alarmMoves) await this.scheduleAlarm();
  }

  /** The alarm goes off at the earliest of the idle deadline and the pending calls' deadlines. */
  private async scheduleAlarm(): Promise<void> {
    const times = [this.record?.expiresAt, await this.pending.nextDeadline()].filter((t): t is number => t !== undefined);
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...times));
  }

  /**
   * Pushes the idle deadline forward. Written at most once per slice of the TTL, so a busy session
   * does not pay a storage write on every request.
   */
  private async touch(): Promise<void> {
    const record = await this.load();
    if (!record) return;
    const ttl = idleTtlMs(this.env);
    const now = Date.now();
    if (record.expiresAt - now > ttl - Math.min(60_000, ttl / 10)) return;
    await this.save({ ...record, expiresAt: now + ttl });
  }

  /** Ends the session: closes its streams and forgets everything it stored. */
  private async terminate(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    this.record = null;
    await this.pending.failAll('The session ended before the call finished');
    this.sockets.close(undefined, 'session ended');
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    await live?.server.close().catch(() => {});
  }
}
