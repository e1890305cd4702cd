import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { Env } from '../env';

const codecs = new WeakMap<Env, RequestStateCodec<never>>();

/**
 * The sealing of multi-round-trip `requestState` (MCP 2026-07-28): HMAC-SHA256 under the deployment's
 * REQUEST_STATE_KEY, valid for ten minutes, bound to the method and the caller, so a state that was
 * altered, is stale, or was minted for someone else is refused before any handler reads it. Rounds
 * may reach different isolates, so the key is configuration, not per-isolate randomness. Undefined
 * when no key (of at least 32 bytes) is configured: then nothing may rely on requestState.
 */
export function requestStateCodec<T>(env: Env): RequestStateCodec<T> | undefined {
  const key = env.REQUEST_STATE_KEY;
  if (!key || new TextEncoder().encode(key).byteLength < 32) return undefined;
  let codec = codecs.get(env);
  if (!codec) {
    codec = createRequestStateCodec<never>({ key, bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}` });
    codecs.set(env, codec);
  }
  return codec as RequestStateCodec<T>;
}
