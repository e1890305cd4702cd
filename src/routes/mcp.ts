import { principalOf } from '../http/request';
import { limitCalls } from '../auth/rateLimit';
import type { Env } from '../env';
import { readJsonBody } from '../http/body';
import type { WorkerRequest } from '../http/request';
import { describeMessages, parseJson, parseMessages } from '../protocol/messages';
import { isModernRequest } from '../server/era';
import { postStreamable } from '../sessions/streamable/streamableRoute';
import { serveModern } from '../stateless/handler';

/**
 * POST /mcp, where both protocol eras arrive. The body is read and validated here, once: a 2026-07-28
 * request (it carries the per-request envelope) is answered in the Worker with no session
 * (src/stateless); any other belongs to a 2025-era session (src/sessions/streamable).
 */
export async function postMcp(request: WorkerRequest, env: Env): Promise<Response> {
  const body = parseJson(await readJsonBody(request));
  const parsed = parseMessages(body);
  Object.assign(request, describeMessages(parsed.messages));
  await limitCalls(env, principalOf(request), parsed.messages);
  if (await isModernRequest(request, body)) {
    request.era = 'modern';
    return serveModern(env, request, body, principalOf(request));
  }
  return postStreamable(request, env, parsed);
}
