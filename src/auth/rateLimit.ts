import type { Env } from '../env';
import { HttpError } from '../protocol/httpError';
import { ErrorCode, isRequest, type JsonRpcMessage } from '../protocol/jsonrpc';
import type { Principal } from '../principal';

/**
 * The rate limit bindings count in fixed windows of their `period` (wrangler.toml: 60 s for all), so
 * a caller over the limit can always go again within one period.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

/**
 * One request of `principal`, counted against its subject's REQUEST_LIMITER budget and, for a
 * workspace's caller, its workspace's WORKSPACE_LIMITER budget too (many keys of one workspace share
 * one n8n); false with the budget that ran out.
 */
async function countRequest(env: Env, principal: Principal): Promise<'credential' | 'workspace' | null> {
  const [own, shared] = await Promise.all([
    withinLimit(env, env.REQUEST_LIMITER, principal.subject),
    principal.workspace === undefined ? true : withinLimit(env, env.WORKSPACE_LIMITER, `workspace:${principal.workspace}`),
  ]);
  return !own ? 'credential' : !shared ? 'workspace' : null;
}

const whose = { credential: 'this credential', workspace: "this credential's workspace" } as const;

/** Every authenticated request counts against its subject's and its workspace's budgets: over either → 429. */
export async function limitRequests(env: Env, principal: Principal): Promise<void> {
  const spent = await countRequest(env, principal);
  if (spent) throw tooManyRequests(`${whose[spent]} is over its request rate limit`);
}

/**
 * Each JSON-RPC request of a body counts as a request too, whatever the transport: the HTTP request
 * that carried them was counted as the first (limitRequests), the others are counted here, all at
 * once, so a batch larger than what is left of the budget is refused whole (429) before any of it runs.
 */
export async function limitCalls(env: Env, principal: Principal, messages: readonly JsonRpcMessage[]): Promise<void> {
  const requests = messages.filter(isRequest).length;
  if (requests <= 1) return;
  const counted = await Promise.all(Array.from({ length: requests - 1 }, () => countRequest(env, principal)));
  const spent = counted.find((c) => c !== null);
  if (!spent) return;
  throw tooManyRequests(`a batch of ${requests} requests is more than what is left of ${whose[spent]}'s request rate limit`);
}

/** 429, with the Retry-After the limiters' period guarantees. */
export const tooManyRequests = (why: string): HttpError =>
  new HttpError(429, ErrorCode.InvalidRequest, `Too Many Requests: ${why}`, { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) });

/** Counts one use of `key` against `limiter`; false once over. */
export async function withinLimit(env: Env, limiter: RateLimit | undefined, key: string): Promise<boolean> {
  if (!limiter || env.RATE_LIMITS === 'off') return true;
  const { success } = await limiter.limit({ key });
  return success;
}
