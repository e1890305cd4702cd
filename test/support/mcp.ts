import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { JSONRPCErrorResponseSchema, RequestIdSchema } from '@modelcontextprotocol/core';
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Env } from '../../src/env';
import worker from '../../src/worker';
import { parseSse as sseEvents, type SseFrame } from '../../scripts/lib/sseFrame';
import { createKey } from './keys';

/** Drives the Worker inside workerd, as the routes tests do: `call` the test entry (test/entry/worker.ts, the production Worker with the test pack on top), `callWithEnv` src/worker.ts itself. */
export const ORIGIN = 'https://mcp.example';
export const PROTOCOL_VERSION = '2025-06-18';

/**
 * Every request carries this file's own API key (all scopes) unless it sets `authorization` itself
 * (`''`: no header at all); a fresh key per test file keeps the per-principal rate limits apart.
 */
let defaultKey: Promise<string> | undefined;
export const testKey = (): Promise<string> => (defaultKey ??= createKey(['*']).then(({ key }) => key));

export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${await testKey()}`);
  if (headers.get('authorization') === '') headers.delete('authorization');
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...init, headers }));
}

/**
 * The Worker with some of its variables changed for one request (PUBLIC_CATALOG, ALLOW_ANONYMOUS, an n8n):
 * its `fetch` called directly, as the runtime would with that configuration.
 */
export async function callWithEnv(path: string, overrides: Partial<Env>, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, init) as Parameters<typeof worker.fetch>[0], { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const initializeRequest = (id: number | string = 1, protocolVersion = PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'vitest', version: '1' } },
});

/** An error body as this server writes it: the SDK's JSON-RPC error response, with the null id JSON-RPC allows when the request's own could not be read. */
export const ErrorBodySchema = JSONRPCErrorResponseSchema.extend({ id: RequestIdSchema.nullable() });

/** The SDK's answer to an initialize on a session that already has one. */
export const ALREADY_INITIALIZED = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: Server already initialized' } };

/** Opens a Streamable HTTP session the way a client does: initialize, then notifications/initialized. */
export async function openSession(protocolVersion = PROTOCOL_VERSION, headers: Record<string, string> = {}): Promise<string> {
  const response = await postJson('/mcp', initializeRequest(1, protocolVersion), headers);
  if (response.status !== 200) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('no mcp-session-id');
  const ack = await postJson('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, ...sessionHeaders(sessionId) });
  if (ack.status !== 202) throw new Error(`initialized notification: ${ack.status}`);
  return sessionId;
}

/**
 * Opens an HTTP+SSE session (GET /sse) and initializes it: its `/messages` endpoint, and its
 * stream, where the answers come.
 */
export async function openSseSession(headers: Record<string, string> = {}) {
  const stream = sseReader(await call('/sse', { headers }));
  const endpoint = (await stream.next()).data;
  await postJson(endpoint, initializeRequest(1, '2024-11-05'), headers);
  await stream.next((f) => f.event === 'message');
  await postJson(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return { endpoint, stream };
}

export const sessionHeaders = (sessionId: string, protocolVersion = PROTOCOL_VERSION) => ({
  'mcp-session-id': sessionId,
  'mcp-protocol-version': protocolVersion,
});

export type { SseFrame };

/** Parses SSE frames; comments (keepalives) are dropped. */
export function parseSse(text: string): SseFrame[] {
  return sseEvents(text);
}

/**
 * One /mcp/sse query-mode request (seed 004: the JSON-RPC request spread over the query string): its
 * stream must carry exactly one `mcpResponse` event and close; the event and its message.
 */
export async function queryMode(params: Record<string, string>) {
  const response = await call(`/mcp/sse?${new URLSearchParams(params)}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events = parseSse(await response.text()); // the stream closes after one event
  expect(events).toHaveLength(1);
  expect(events[0]!.event).toBe('mcpResponse');
  return { event: events[0]!, message: JSON.parse(events[0]!.data) };
}

/** The JSON-RPC messages of a response, whether it came as JSON or as an SSE stream. */
export async function messagesOf(response: Response): Promise<Record<string, any>[]> {
  const text = await response.text();
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    return parseSse(text)
      .filter((f) => f.data)
      .map((f) => JSON.parse(f.data));
  }
  const body = JSON.parse(text);
  return Array.isArray(body) ? body : [body];
}

/** Sends one request on a session and returns the response message with its id. */
export async function rpc(sessionId: string, method: string, params?: unknown, id: number | string = 2) {
  const response = await postJson('/mcp', { jsonrpc: '2.0', id, method, params }, sessionHeaders(sessionId));
  const messages = await messagesOf(response);
  const reply = messages.find((m) => m.id === id);
  return { status: response.status, reply, messages };
}

/** Reads an SSE stream incrementally: `next()` resolves with the next frame that satisfies `match`. */
export function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queued: SseFrame[] = [];
  return {
    async next(match: (f: SseFrame) => boolean = () => true): Promise<SseFrame> {
      for (;;) {
        const i = queued.findIndex(match);
        if (i >= 0) return queued.splice(i, 1)[0]!;
        const { done, value } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += value;
        const end = buffer.lastIndexOf('\n\n');
        if (end >= 0) {
          queued.push(...parseSse(buffer.slice(0, end + 2)));
          buffer = buffer.slice(end + 2);
        }
      }
    },
    cancel: () => reader.cancel(),
  };
}
