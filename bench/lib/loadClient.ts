/**
 * The load driver's clients: raw HTTP, so nothing but the server is measured, and so every answer can
 * be counted. A Streamable HTTP session reads each POST's answer from its body (and, when the stream
 * drops, resumes it with GET + Last-Event-ID); a legacy HTTP+SSE session matches the `message` events
 * of its stream to the ids it POSTed. Either way each request ends in exactly one outcome, and answers
 * that come twice or never are counted.
 */
import { sseFrames } from '../../scripts/lib/sseFrame.ts';

export type Outcome =
  | 'ok'
  /** The answer was there but not the right one (wrong tool result, a JSON-RPC error). */
  | 'wrong'
  | 'rpc-error'
  /** A clear error the server chose to give: an isError result (a timeout, a retried-out call). */
  | 'tool-error'
  /** HTTP status of a refused request, e.g. http-503. */
  | `http-${number}`
  /** The connection failed or the stream ended before the answer (the client saw it happen). */
  | 'dropped'
  /** No answer within the client's patience. */
  | 'lost';

export interface Call {
  method: string;
  params?: unknown;
  /** Checks the result; true when it is what this call should get. */
  expect(result: Record<string, any>): boolean;
}

export interface Sent {
  outcome: Outcome;
  ms: number;
  /** Answers seen for this id: 1 is right; 0 is lost, 2+ duplicated. */
  answers: number;
  /** The stream dropped and the answer came on a resumed one. */
  resumed?: boolean;
  /** What an error answer said (first 120 characters). */
  error?: string;
}

const PATIENCE_MS = 30_000;
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function judge(call: Call, message: Record<string, any>): { outcome: Outcome; error?: string } {
  if (message.error) return { outcome: 'rpc-error', error: String(message.error.message).slice(0, 120) };
  if (message.result?.isError) return { outcome: 'tool-error', error: String(message.result.content?.[0]?.text).slice(0, 120) };
  return { outcome: call.expect(message.result ?? {}) ? 'ok' : 'wrong' };
}

export interface Target {
  url: string;
  apiKey?: string;
}

const auth = (target: Target): Record<string, string> => (target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {});

/** A Streamable HTTP session (`/mcp`). `dropAfterPriming`: cut each POST stream after its first event and resume. */
export class StreamableSession {
  /** Mcp-Session-Id, once open. */
  sessionId = '';
  private readonly target: Target;
  readonly protocolVersion: string;

  constructor(target: Target, protocolVersion: string) {
    this.target = target;
    this.protocolVersion = protocolVersion;
  }

  private headers(): Record<string, string> {
    return {
      ...JSON_HEADERS,
      ...auth(this.target),
      'mcp-protocol-version': this.protocolVersion,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
    };
  }

  async open(): Promise<void> {
    const init = await fetch(`${this.target.url}/mcp`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: this.protocolVersion, capabilities: {}, clientInfo: { name: 'load', version: '1' } },
      }),
    });
    await init.text();
    if (!init.ok) throw new Error(`initialize: HTTP ${init.status}`);
    this.sessionId = init.headers.get('mcp-session-id') ?? '';
    const ack = await fetch(`${this.target.url}/mcp`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await ack.text();
  }

  async send(id: number, call: Call, options: { dropAfterPriming?: boolean } = {}): Promise<Sent> {
    const started = performance.now();
    const signal = AbortSignal.timeout(PATIENCE_MS);
    let resumed = false;
    const done = (verdict: Outcome | ReturnType<typeof judge>, answers: number): Sent => ({
      ...(typeof verdict === 'string' ? { outcome: verdict } : verdict),
      ms: performance.now() - started,
      answers,
      ...(resumed ? { resumed } : {}),
    });
    let response: Response;
    try {
      response = await fetch(`${this.target.url}/mcp`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: call.method, ...(call.params === undefined ? {} : { params: call.params }) }),
        signal,
      });
    } catch {
      return done(signal.aborted ? 'lost' : 'dropped', 0);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return done(`http-${response.status}`, 0);
    }
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const answers = [JSON.parse(await response.text())].flat().filter((m: { id?: unknown }) => m.id === id);
      return done(answers.length === 1 ? judge(call, answers[0]) : 'wrong', answers.length);
    }
    // An SSE answer: read to the end, counting every message for this id. A stream that ends or
    // breaks before the answer is resumed from its last event id, as the SDK client does.
    let lastEventId: string | undefined;
    const answers: Record<string, any>[] = [];
    let body: ReadableStream<Uint8Array> | null = response.body;
    while (body && answers.length === 0) {
      const drop = options.dropAfterPriming && !resumed;
      try {
        // Leaving early keeps the connection open, as this client always has (the body.cancel() below finds the
        // body locked by the pipe and does nothing): a real drop would change what the fault runs measure.
        for await (const frame of sseFrames(body).values({ preventCancel: true })) {
          if (frame.id) lastEventId = frame.id;
          if (frame.data) {
            const message = JSON.parse(frame.data);
            if (message.id === id) answers.push(message);
          }
          // The client's connection drops mid-call, as a flaky network does to a long call.
          if (drop && lastEventId && answers.length === 0) break;
        }
      } catch {
        // the stream broke (the session object was reset): resume below if we can
      }
      await body.cancel().catch(() => {});
      if (answers.length > 0 || lastEventId === undefined || signal.aborted) break;
      resumed = true;
      body = await this.resume(lastEventId, signal);
      if (!body) break;
    }
    if (answers.length === 0) return done(signal.aborted ? 'lost' : 'dropped', 0);
    return done(answers.length === 1 ? judge(call, answers[0]!) : 'wrong', answers.length);
  }

  /**
   * GET + Last-Event-ID. Until the server has noticed the old connection is gone it answers 409; the
   * client waits its `retry` interval and asks again, as the SDK client does.
   */
  private async resume(lastEventId: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | null> {
    while (!signal.aborted) {
      try {
        const again = await fetch(`${this.target.url}/mcp`, {
          headers: { ...this.headers(), accept: 'text/event-stream', 'last-event-id': lastEventId },
          signal,
        });
        if (again.ok) return again.body;
        await again.body?.cancel();
        if (again.status !== 409 && again.status !== 503) return null;
      } catch {
        // connection refused mid-restart: try again
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return null;
  }

  /** Ends the session, as a well-behaved client does; returns the status. */
  async close(): Promise<number> {
    const response = await fetch(`${this.target.url}/mcp`, { method: 'DELETE', headers: this.headers() });
    await response.body?.cancel();
    return response.status;
  }

  /** Whether the session still answers (its state survived whatever happened). */
  async alive(): Promise<boolean> {
    const response = await fetch(`${this.target.url}/mcp`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'ping' }),
    });
    const text = await response.text();
    return response.ok && text.includes('"id":"alive"');
  }
}

/** A legacy HTTP+SSE session (`/sse` + `/messages`): answers arrive on the one stream, matched by id. */
export class LegacySseSession {
  private endpoint = '';
  private readonly answers = new Map<number, Record<string, any>[]>();
  private readonly waiting = new Map<number, () => void>();
  private streamEnded = false;
  private readonly abort = new AbortController();
  private readonly target: Target;

  constructor(target: Target) {
    this.target = target;
  }

  async open(): Promise<void> {
    const response = await fetch(`${this.target.url}/sse`, { headers: { ...auth(this.target), accept: 'text/event-stream' }, signal: this.abort.signal });
    if (!response.ok || !response.body) throw new Error(`GET /sse: HTTP ${response.status}`);
    const stream = sseFrames(response.body).values();
    const first = await stream.next();
    if (first.done || first.value.event !== 'endpoint') throw new Error('no endpoint event');
    this.endpoint = first.value.data;
    void (async () => {
      try {
        for await (const frame of stream) {
          if (frame.event !== 'message') continue;
          const message = JSON.parse(frame.data);
          if (typeof message.id !== 'number') continue;
          this.answers.set(message.id, [...(this.answers.get(message.id) ?? []), message]);
          this.waiting.get(message.id)?.();
        }
      } catch {
        // the stream broke: every call still waiting sees it
      }
      this.streamEnded = true;
      for (const wake of this.waiting.values()) wake();
    })();
    await this.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'load-sse', version: '1' } },
    });
    await this.wait(0);
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  private post(message: unknown): Promise<Response> {
    return fetch(new URL(this.endpoint, this.target.url), {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...auth(this.target) },
      body: JSON.stringify(message),
    });
  }

  private wait(id: number): Promise<void> {
    if (this.answers.has(id) || this.streamEnded) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, PATIENCE_MS);
      this.waiting.set(id, () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      });
    });
  }

  async send(id: number, call: Call): Promise<Sent> {
    const started = performance.now();
    const done = (verdict: Outcome | ReturnType<typeof judge>): Sent => ({
      ...(typeof verdict === 'string' ? { outcome: verdict } : verdict),
      ms: performance.now() - started,
      answers: this.answers.get(id)?.length ?? 0,
    });
    let posted: Response;
    try {
      posted = await this.post({ jsonrpc: '2.0', id, method: call.method, ...(call.params === undefined ? {} : { params: call.params }) });
      await posted.body?.cancel();
    } catch {
      return done('dropped');
    }
    if (posted.status !== 202) return done(`http-${posted.status}`);
    await this.wait(id);
    const answers = this.answers.get(id);
    if (!answers) return done(this.streamEnded ? 'dropped' : 'lost');
    return done(judge(call, answers[0]!));
  }

  /** Answers that came more than once, counted after the run (a late duplicate would show here). */
  duplicates(): number {
    return [...this.answers.values()].filter((a) => a.length > 1).length;
  }

  get broken(): boolean {
    return this.streamEnded;
  }

  close(): void {
    this.abort.abort();
  }
}
