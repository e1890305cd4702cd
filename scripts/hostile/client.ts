/**
 * What the hostile-input attacks share (`npm run hostile`): a client that speaks MCP over plain HTTP the
 * way an attacker would, with time limits, and the outcome of an attack.
 */
import { parseSse } from '../lib/sseFrame.ts';

export interface Outcome {
  finding: string;
  attack: string;
  refused: boolean;
  detail: string;
}

export const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
export const PROTOCOL = '2025-06-18';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The answer to a request within `ms`, or null: a request that never answers is what some attacks cause. */
export async function within(ms: number, request: () => Promise<Response>): Promise<{ status: number; text: string; ms: number } | null> {
  const started = Date.now();
  const signal = AbortSignal.timeout(ms);
  try {
    const response = await Promise.race([request(), new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('timeout'))))]);
    const text = await Promise.race([response.text(), new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('timeout'))))]);
    return { status: response.status, text, ms: Date.now() - started };
  } catch {
    return null;
  }
}

export class Client {
  constructor(
    readonly url: string,
    readonly key: string,
  ) {}

  headers(session?: string): Record<string, string> {
    return { ...JSON_HEADERS, authorization: `Bearer ${this.key}`, 'mcp-protocol-version': PROTOCOL, ...(session ? { 'mcp-session-id': session } : {}) };
  }

  async session(): Promise<string> {
    const response = await fetch(`${this.url}/mcp`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
      }),
    });
    await response.text();
    const id = response.headers.get('mcp-session-id');
    if (!id) throw new Error(`initialize answered ${response.status}`);
    await (
      await fetch(`${this.url}/mcp`, {
        method: 'POST',
        headers: this.headers(id),
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    return id;
  }

  /** A body POSTed to /mcp on `session`, answered within `ms` (null if not). */
  post(session: string | undefined, body: unknown, ms = 30_000) {
    return within(ms, () =>
      fetch(`${this.url}/mcp`, { method: 'POST', headers: this.headers(session), body: typeof body === 'string' ? body : JSON.stringify(body) }),
    );
  }

  callTool(session: string, name: string, args: unknown, ms = 60_000) {
    return this.post(session, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, ms);
  }

  /**
   * A tool's answer: on a 2025 session of its own (the call goes through the session's object and the
   * queue), or as a 2026-07-28 request (`modern`: answered where it arrives, in the Worker, as concurrent
   * as its callers); its text, whether it is an error, how long it took, and its size; null when none
   * came within `ms`.
   */
  async tool(name: string, args: unknown, ms = 120_000, era: 'session' | 'modern' = 'session'): Promise<ToolAnswer | null> {
    const answer =
      era === 'modern' ? await this.modern('tools/call', { name, arguments: args }, ms) : await this.callTool(await this.session(), name, args, ms);
    if (!answer) return null;
    const message = responseOf(answer.text);
    const result = message?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
    const text = result?.content?.[0]?.text ?? JSON.stringify(message?.error ?? answer.text);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { isError: result?.isError === true || message?.error !== undefined, text, json, ms: answer.ms, bytes: answer.text.length };
  }

  /** A 2026-07-28 request: no session, the envelope in `_meta` and mirrored in headers. */
  modern(method: string, params: Record<string, unknown>, ms = 30_000) {
    const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    return within(ms, () =>
      fetch(`${this.url}/mcp`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${this.key}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
      }),
    );
  }

  /** Whether the server still serves: a new session, and the landing page. */
  async serves(): Promise<string> {
    const init = await this.post(
      undefined,
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'after', version: '1' } } },
      10_000,
    );
    const page = await within(10_000, () => fetch(`${this.url}/`, { headers: { accept: 'text/html' } }));
    return `initialize ${init?.status ?? 'no answer'}, landing page ${page?.status ?? 'no answer'}`;
  }
}

export interface ToolAnswer {
  isError: boolean;
  text: string;
  json: any;
  ms: number;
  /** Characters of the whole HTTP answer. */
  bytes: number;
}

/** The JSON-RPC response among a POST's answer (JSON, or SSE events with notifications before it). */
export function responseOf(text: string): { result?: unknown; error?: { code: number; message: string } } | undefined {
  const bodies = text.startsWith('{') ? [text] : parseSse(text).map((event) => event.data);
  for (const body of bodies) {
    try {
      const message = JSON.parse(body) as { id?: unknown; result?: unknown; error?: { code: number; message: string } };
      if (message.id !== undefined && (message.result !== undefined || message.error !== undefined)) return message;
    } catch {
      // a keep-alive or a partial event
    }
  }
  return undefined;
}

/** The JSON of a tools/call answer (JSON or one SSE event), or undefined. */
export function resultOf(text: string): { isError?: boolean; content?: { text: string }[] } | undefined {
  const data = text.startsWith('{') ? text : parseSse(text).find((event) => event.data)?.data;
  try {
    return (JSON.parse(data ?? '') as { result?: never }).result;
  } catch {
    return undefined;
  }
}
