import { DurableObject } from 'cloudflare:workers';
import type { Principal } from '../auth/principal';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest, McpServer, ServerNotification } from '@modelcontextprotocol/server';
import { idleTtlMs } from '../config';
import type { Env } from '../env';
import { faultsOn } from '../faults/inject';
import { sessionNotFound, toErrorResponse } from '../http/errors';
import type { JsonRpcErrorResponse } from '../protocol/jsonrpc';
import type { TransportKind } from '../transport/kinds';
import { LegacySseTransport } from '../transport/LegacySseTransport';
import { OneShotTransport } from '../transport/OneShotTransport';
import { StreamableHttpTransport, type StreamableSessionState } from '../transport/StreamableHttpTransport';
import { serveQueryRequest } from '../transport/sseQuery';
import { callTimeoutMs, executionPolicy } from '../execution/policy';
import { runDirect, toolContext, type CallRequest } from '../execution/runTool';
import type { ToolDefinition } from '../tools/tool';
import { createMcpServer, type ToolExecutor } from '../protocol/mcpServer';
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

/**
 * One MCP session. Owns the SDK server and the transport state; persists what it needs in its own
 * storage so an evicted object restores itself; closes itself after the idle TTL (alarm).
 */
export class SessionObject extends DurableObject<Env> {
  private record: SessionRecord | null | undefined;
  private live: Live | undefined;
  /** A Streamable HTTP server being set up; requests and late results arriving meanwhile share it. */
  private starting: Promise<Live & { kind: 'streamable-http' }> | undefined;
  private readonly pending: PendingCalls;
  /** Who sent the request being served; the SDK server's tool guard reads it. */
  private caller: Principal | undefined;
  private readonly currentCaller = (): Principal => {
    if (!this.caller) throw new Error('no caller: the session object served a request it did not admit');
    return this.caller;
  };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
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
    return this.pending.deliver(callId, result);
  }

  /** Whether a queued call is still owed an answer (the consumer stops a run nobody waits for). */
  async isPending(callId: string): Promise<boolean> {
    return this.pending.has(callId);
  }

  /** Fault injection (FAULT_INJECTION=on only, src/faults): resets this object now, as an eviction mid-call does. */
  async injectEviction(): Promise<void> {
    if (faultsOn(this.env)) this.ctx.abort('fault injection: eviction');
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
    // A cancelled request gets no response (MCP), so its POST stream is closed instead of left hanging.
    request.signal.addEventListener('abort', () => {
      if (this.live?.kind === 'streamable-http') this.live.transport.closeSSEStream(request.requestId);
    });
    if (executionPolicy(tool, this.env) === 'direct') return runDirect(tool, args, toolContext(this.env, sessionId, request));
    const callId = crypto.randomUUID();
    const deadline = Date.now() + callTimeoutMs(tool, this.env);
    const { progressToken } = request;
    const streamId = this.live?.kind === 'streamable-http' ? this.live.transport.streamOf(request.requestId) : undefined;
    const call = { callId, tool: tool.name, requestId: request.requestId, deadline, ...(streamId === undefined ? {} : { streamId }) };
    return this.pending.start(call, request, async () => {
      await this.env.TOOL_CALLS.send({
        v: 1,
        sessionId,
        callId,
        tool: tool.name,
        arguments: args as Record<string, unknown>,
        caller: this.currentCaller().id,
        deadline,
        ...(progressToken === undefined ? {} : { progressToken }),
      });
    });
  };

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

  /** GET /sse (and /mcp/sse without a query): opens the stream and creates the session. */
  async openLegacySse(sessionId: string, principal: Principal): Promise<Response> {
    if (await this.load()) return toErrorResponse(sessionNotFound());
    this.caller = principal;
    const transport = new LegacySseTransport(sessionId, `/messages?sessionId=${sessionId}`);
    transport.onclose = () => void this.terminate();
    const server = createMcpServer(this.env, { execute: this.executor(sessionId), caller: this.currentCaller, era: 'legacy' });
    this.live = { kind: 'sse', server, transport };
    await this.save(this.newRecord(sessionId, 'sse', principal));
    await server.connect(transport);
    return transport.response;
  }

  /** POST /messages?sessionId=…: hands validated messages to the session's SSE transport. */
  async postLegacyMessage(messages: JSONRPCMessage[], principal: Principal): Promise<Response> {
    if (!(await this.admits(principal, 'sse'))) return toErrorResponse(sessionNotFound());
    if (this.live?.kind !== 'sse' || !this.live.transport.isOpen) {
      // The stream died with an earlier instance of this object: the session cannot answer any more.
      await this.terminate();
      return toErrorResponse(sessionNotFound());
    }
    for (const message of messages) this.live.transport.receive(message);
    await this.touch();
    return new Response('Accepted', { status: 202 });
  }

  /**
   * One /mcp/sse query-mode request, on a server that lives only for it, in an object addressed by a
   * throwaway id (queued results find their way back by it). Nothing outlives the request.
   */
  async oneShot(request: JSONRPCRequest, id: string, principal: Principal): Promise<JSONRPCMessage | JsonRpcErrorResponse> {
    this.caller = principal;
    const server = createMcpServer(this.env, { execute: this.executor(id), caller: this.currentCaller, era: 'legacy' });
    const transport = new OneShotTransport();
    await server.connect(transport);
    try {
      const initialized = await transport.initialize('mcp-sse-query');
      return await serveQueryRequest(transport, request, initialized);
    } finally {
      await server.close();
      // Nothing outlives the request: not the counters, nor the object's storage.
      await this.ctx.storage.deleteAll();
    }
  }

  /**
   * One alarm serves both deadlines: pending calls past theirs are answered with a timeout, and the
   * session closes once idle. Alarms can fire late or twice, so stored state decides.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    await this.pending.expire(now);
    const record = await this.load();
    if (!record) return;
    const streamOpen = this.live?.kind === 'sse' && this.live.transport.isOpen;
    if (record.expiresAt > now) {
      await this.scheduleAlarm();
    } else if (streamOpen || (await this.pending.nextDeadline()) !== undefined) {
      // A connected legacy SSE client is not idle, however long it waits between calls; nor is a
      // session waiting on a call (the load harness found sessions ended under their calls).
      await this.save({ ...record, expiresAt: now + idleTtlMs(this.env) });
    } else {
      await this.terminate();
    }
  }

  private async streamable(sessionId: string): Promise<Live & { kind: 'streamable-http' }> {
    if (this.live?.kind === 'streamable-http') return this.live;
    this.starting ??= this.startStreamable(sessionId).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async startStreamable(sessionId: string): Promise<Live & { kind: 'streamable-http' }> {
    const transport = new StreamableHttpTransport(sessionId, this.ctx.storage, {
      onInitialized: (state) => this.save({ ...(this.record ?? this.newRecord(sessionId, 'streamable-http', this.currentCaller())), ...state }),
      onClosed: () => this.terminate(),
    });
    const server = createMcpServer(this.env, { execute: this.executor(sessionId), caller: this.currentCaller, era: 'legacy' });
    await server.connect(transport);
    if (this.record) transport.restore(sessionId, this.record);
    // Queued calls an evicted instance left pending are answered on their streams when they finish.
    for (const call of await this.pending.list()) if (call.streamId !== undefined) transport.adopt(call.requestId, call.streamId);
    const live = { kind: 'streamable-http' as const, server, transport };
    this.live = live;
    return live;
  }

  /**
   * A queued call's result or progress that arrived after the object was evicted. Streamable HTTP
   * keeps it in the event store for the client's resume; the legacy SSE and query-mode streams were
   * single HTTP responses held by the evicted instance, so there is nobody left to tell.
   */
  private async sendOrphaned(call: PendingCall, message: JSONRPCMessage): Promise<void> {
    const record = await this.load();
    if (record?.transport !== 'streamable-http' || call.streamId === undefined) return;
    // No request brought a caller to this instance: the session's own principal stands in.
    this.caller ??= record.principal;
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
    const record = this.record;
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
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    await live?.server.close().catch(() => {});
  }
}
