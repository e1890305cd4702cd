import { principalOf } from '../http/request';
import { limitCalls } from '../auth/rateLimit';
import type { Env } from '../env';
import { readJsonBody } from '../http/body';
import type { WorkerRequest } from '../http/request';
import { describeMessages, parseJson, parseMessages } from '../protocol/messages';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { isModernRequest } from '../server/era';
import { postStreamable } from '../sessions/streamable/streamableRoute';
import { serveModern } from '../stateless/handler';

/**
 * POST /mcp, where both protocol eras arrive. The body is read once and its era decided first. A
 * 2026-07-28 request (one JSON-RPC request or notification carrying the per-request envelope) is
 * answered in the Worker with no session (src/stateless), and validated by the SDK that serves it,
 * once. Any other body belongs to a 2025-era session (src/sessions/streamable) and is validated here,
 * by the same SDK schemas, before any session object wakes.
 */
export async function postMcp(request: WorkerRequest, env: Env): Promise<Response> {
  const body = parseJson(await readJsonBody(request));
  if (isSingleMessage(body) && (await isModernRequest(request, body))) {
    Object.assign(request, describeMessages([body]));
    request.era = 'modern';
    return serveModern(env, request, body, principalOf(request));
  }
  const parsed = parseMessages(body);
  Object.assign(request, describeMessages(parsed.messages));
  await limitCalls(env, principalOf(request), parsed.messages);
  return postStreamable(request, env, parsed);
}

/**
 * What the SDK could classify as 2026-07-28 (it has no batches): one object naming a method. Anything
 * else is judged by the 2025 era's validation, whose -32600 names what is wrong with it.
 */
const isSingleMessage = (body: unknown): body is JSONRPCMessage =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { method?: unknown }).method === 'string';
