import { DurableObject } from 'cloudflare:workers';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest, ServerNotification } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';
import { idleTtlMs } from '../config';
import type { Env } from '../env';
import { observe } from '../observability/events';
import { HttpError, sessionNotFound, toErrorResponse } from '../protocol/httpError';
import { ErrorCode, type JsonRpcErrorResponse } from '../protocol/jsonrpc';
import type { TransportKind } from './kinds';
import { PRINCIPAL_HEADER } from './handoff/handoff';
import { StreamSockets } from './handoff/StreamSockets';
import { newRecord, type QueueHooks, type SessionHost, type SessionRecord } from './session';
import { attachStream, StreamableSession } from './streamable/StreamableSession';
import { SseSession } from './sse/SseSession';
import { SSE_STREAM_ID } from './sse/SseTransport';
import { QuerySession } from './query/QuerySession';
import { PARKED, QUERY_STREAM_ID } from './query/queryMessages';
import { callTimeoutMs, executionPolicy } from '../server/policy';
import { runDirect, toolContext } from '../server/runTool';
import { keepInput, loadInput, tooLargeForMessage, type QueuedCall } from '../queues/callStorage';
import { callerOf } from '../queues/message';
import { createMcpServer, type ToolExecutor } from '../server/createServer';
import { PendingCalls, type Delivery, type PendingCall } from './PendingCalls';

const RECORD_KEY = 'session';

/**
 * The Durable Object of one 2025-era session, whatever its transport: a Streamable HTTP session
 * (streamable/StreamableSession), an HTTP+SSE session (sse/SseSession), or one /mcp/sse query
 * (query/QuerySession), each a class of its own. What they share stays here: the session record in
 * the object's storage (an evicted object restores itself from it), the idle deadline and its alarm,
 * the queued calls still owed an answer, the sockets of the client streams the Worker holds, and the
 * RPC entry points the Worker and the queue consumer call.
 *
 * It holds no client stream while it waits: the Worker holds them, and this object sends their
 * events over hibernatable WebSockets (src/sessions/handoff/StreamSockets.ts), so an idle client's object
 * sleeps, and wakes rebuilt from storage when a result, a request or its alarm arrives.
 */
export class SessionObject extends DurableObject<Env> {
  private record: SessionRecord | null | undefined;
  private live: StreamableSession | SseSession | undefined;
  /** A session being set up; requests and late results arriving meanwhile share it. */
  private starting: Promise<StreamableSession | SseSession> | undefined;
  private readonly pending: PendingCalls;
  private readonly sockets: StreamSockets;
  private readonly host: SessionHost;
  private readonly query: QuerySession;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sockets = new StreamSockets(ctx);
    this.pending = new PendingCalls(
      ctx.storage,
      () => this.scheduleAlarm(),
      (call, message) => this.sendLate(call, message),
    );
    this.host = {
      env,
      storage: ctx.storage,
      sockets: this.sockets,
      pending: this.pending,
      server: (id, hooks) => createMcpServer(env, { execute: this.executor(id, hooks), era: 'sessions' }),
      load: () => this.load(),
      save: (record) => this.save(record),
      terminate: () => this.terminate(),
    };
    this.query = new QuerySession(this.host);
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

  /**
   * POST/GET/DELETE /mcp. `create` is set by the Worker for an initialize without a session id;
   * `parsedBody` is the POST body the Worker already parsed and validated.
   */
  async streamableHttp(request: Request, sessionId: string, create: boolean, principal: Principal, parsedBody?: unknown): Promise<Response> {
    try {
      if (create ? await this.load() : !(await this.admits(principal, 'streamable-http'))) throw sessionNotFound();
      const response = await (await this.streamable(sessionId)).handle(request, principal, parsedBody);
      await this.touch();
      return response;
    } catch (error) {
      return toErrorResponse(error);
    }
  }

  /** POST /messages?sessionId=…: hands validated messages to the HTTP+SSE session. */
  async postSseMessage(messages: JSONRPCMessage[], principal: Principal): Promise<Response> {
    const record = await this.load();
    if (!(await this.admits(principal, 'sse')) || !record) return toErrorResponse(sessionNotFound());
    if (!this.sockets.has(SSE_STREAM_ID)) {
      // The client's stream is gone: the session cannot answer any more.
      await this.terminate();
      return toErrorResponse(sessionNotFound());
    }
    await (await this.sse(record.id)).receive(this.host, messages, principal);
    await this.touch();
    // No body: a body the client never reads would keep this object's response, and so the object, in flight.
    return new Response(null, { status: 202 });
  }

  /** GET /mcp/sse?method=…: one query, in an object of its own (src/sessions/query/QuerySession.ts). */
  async serveQuery(request: JSONRPCRequest, id: string, principal: Principal): Promise<JSONRPCMessage | JsonRpcErrorResponse | typeof PARKED> {
    return this.query.serve(request, id, principal);
  }

  /**
   * The Worker's side of a client stream, as a WebSocket (src/sessions/handoff/handoff.ts): `/stream` picks
   * up a handed-off stream (a Streamable HTTP stream, or a parked query's answer), `/sse` opens an HTTP+SSE session's one stream.
   */
  override async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const principal = JSON.parse(request.headers.get(PRINCIPAL_HEADER) ?? 'null') as Principal | null;
      if (request.headers.get('upgrade') !== 'websocket' || !principal)
        throw new HttpError(426, ErrorCode.InvalidRequest, 'Upgrade Required: a session object takes WebSockets from the Worker only');
      if (url.pathname === '/sse') return await this.openSse(url.searchParams.get('session') ?? '', principal);
      if (url.pathname !== '/stream') throw new HttpError(404, ErrorCode.InvalidRequest, `Not Found: ${url.pathname}`);
      const streamId = url.searchParams.get('id') ?? '';
      if (streamId === QUERY_STREAM_ID) return await this.query.attach(principal);
      const live = this.live?.kind === 'streamable-http' ? this.live : undefined;
      return await attachStream(this.host, live, streamId, url.searchParams.get('after') ?? undefined, principal);
    } catch (error) {
      return toErrorResponse(error);
    }
  }

  /** GET /sse (and /mcp/sse without a query): creates the session, whose stream the Worker holds. */
  private async openSse(sessionId: string, principal: Principal): Promise<Response> {
    if (await this.load()) return toErrorResponse(sessionNotFound());
    const client = this.sockets.open(SSE_STREAM_ID);
    await this.save(newRecord(this.env, sessionId, 'sse', principal));
    (await this.sse(sessionId)).transport.announce(`/messages?sessionId=${sessionId}`);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The Worker let go of a stream (its client left). An HTTP+SSE session ends with its one stream. */
  override async webSocketClose(socket: WebSocket): Promise<void> {
    const [tag] = this.ctx.getTags(socket);
    try {
      socket.close(1000, 'closed');
    } catch {
      // already closed
    }
    if (tag === SSE_STREAM_ID) await this.terminate();
    if (tag === QUERY_STREAM_ID) await this.query.clientLeft();
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    await this.webSocketClose(socket);
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
    const streamOpen = this.sockets.has(SSE_STREAM_ID);
    let outcome: 'kept' | 'closed' = 'kept';
    if (record.expiresAt > now) {
      await this.scheduleAlarm();
    } else if (streamOpen || (await this.pending.nextDeadline()) !== undefined) {
      // A connected HTTP+SSE client is not idle, however long it waits between calls; nor is a
      // session waiting on a call (the load harness found sessions ended under their calls).
      await this.save({ ...record, expiresAt: now + idleTtlMs(this.env) });
    } else {
      await this.terminate();
      outcome = 'closed';
    }
    observe(this.env, { kind: 'alarm', outcome, ms: Date.now() - now, session: record.id });
  }

  /** Direct tools run here; queued ones are recorded as pending and sent to the tool-calls queue, with the caller of their request. */
  private executor(sessionId: string, hooks: QueueHooks = {}): ToolExecutor {
    return (tool, args, request) => {
      if (executionPolicy(tool, this.env) === 'direct') return runDirect(tool, args, toolContext(this.env, tool, sessionId, request));
      const callId = crypto.randomUUID();
      const deadline = Date.now() + callTimeoutMs(tool, this.env);
      const { progressToken } = request;
      const streamId = hooks.streamOf?.(request.requestId);
      const input = { arguments: args as Record<string, unknown> };
      const inputStored = tooLargeForMessage(input);
      const call: PendingCall = {
        callId,
        tool: tool.name,
        requestId: request.requestId,
        deadline,
        ...(streamId === undefined ? {} : { streamId }),
        ...(inputStored ? { inputStored } : {}),
      };
      return this.pending.start(call, request, async () => {
        if (inputStored) await keepInput(this.ctx.storage, callId, input);
        await this.env.TOOL_CALLS.send({
          v: 2,
          sessionId,
          callId,
          tool: tool.name,
          ...(inputStored ? { inputStored } : input),
          caller: callerOf(request.caller),
          deadline,
          ...(progressToken === undefined ? {} : { progressToken }),
        });
        // Nothing here works on the call now: its stream goes to the Worker, and this object may sleep.
        hooks.queued?.(streamId);
      });
    };
  }

  /** The Streamable HTTP session's server and transport, started once per instance. */
  private streamable(sessionId: string): Promise<StreamableSession> {
    if (this.live?.kind === 'streamable-http') return Promise.resolve(this.live);
    return this.started(() => StreamableSession.start(this.host, sessionId)) as Promise<StreamableSession>;
  }

  /** The HTTP+SSE session's server, started once per instance. */
  private sse(sessionId: string): Promise<SseSession> {
    if (this.live?.kind === 'sse') return Promise.resolve(this.live);
    return this.started(() => SseSession.start(this.host, sessionId)) as Promise<SseSession>;
  }

  private started(start: () => Promise<StreamableSession | SseSession>): Promise<StreamableSession | SseSession> {
    this.starting ??= start()
      .then((session) => (this.live = session))
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * A queued call's result or progress that arrived after the object was evicted (or hibernated):
   * each kind of session sends it where its client will find it.
   */
  private async sendLate(call: PendingCall, message: JSONRPCMessage): Promise<void> {
    const record = await this.load();
    if (!record) return this.query.sendLate(message);
    if (record.transport === 'sse') return (await this.sse(record.id)).sendLate(message);
    // A Streamable HTTP call's answer goes on its stream; one without a stream has nowhere to go.
    const { streamId } = call;
    if (streamId !== undefined) await (await this.streamable(record.id)).sendLate({ ...call, streamId }, message);
  }

  /**
   * A session answers only the principal that created it, on its own transport; to anyone else it
   * does not exist (404), so a leaked session id is no way in.
   */
  private async admits(principal: Principal, transport: TransportKind): Promise<boolean> {
    const record = await this.load();
    // `?.`: records from before access control have no principal, and belong to nobody now.
    return record?.transport === transport && record.principal?.id === principal.id;
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
