import type { Env } from './env';

/**
 * package.json's name and version, written out so the bundle does not carry all of package.json to
 * read two fields; test/scripts/packageIdentity.test.ts fails when they drift apart.
 */
export const SERVER_NAME = 'n8n-mcp-edge';
export const SERVER_VERSION = '0.1.0';
/** What clients and the landing page show. */
export const SERVER_TITLE = 'n8n MCP (edge)';

/** Largest request body accepted on any route (413 above it). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The most one tool answer may be: bytes of its result as UTF-8 JSON (the text content escaped, and
 * structuredContent beside it), which is what the JSON-RPC message carries. A session's event store
 * and a task's record keep that result in a Durable Object, whose values are at most 2 MB
 * (SQLite-backed) as V8 serializes them: there a string with any character past U+00FF takes two bytes
 * a character, so an answer of ASCII JSON with one such character takes twice its bytes, the worst of
 * the shapes measured (bench/answerBudget.ts). 2 × 800,000 leaves 400,000 for what is stored beside
 * it: a task's arguments kept inline (64 KiB of JSON, up to 295,000 bytes serialized: numbers V8 keeps
 * as doubles, 9 bytes each), ids.
 */
export const ANSWER_BUDGET_BYTES = 800_000;

/** Largest total of request headers (431 above it); an MCP request needs a few hundred bytes. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** SSE keepalive comments keep idle streams open through proxies and the edge (which cut after ~100 s). */
export const SSE_KEEPALIVE_MS = 15_000;

const DEFAULT_IDLE_TTL_SECONDS = 3600;

export function idleTtlMs(env: Env): number {
  const seconds = Number(env.SESSION_IDLE_TTL_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_IDLE_TTL_SECONDS) * 1000;
}

/** The queue of the queued calls that run long (src/server/policy.ts runsLong), as wrangler.toml names it. */
export const LONG_CALLS_QUEUE = 'tool-calls-long';

/** The sessionless revision served on /mcp beside the 2025 era's sessions. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The public routes, for humans (server_info, /health). */
export const TRANSPORTS = ['streamable-http (/mcp)', 'sse (/sse, /mcp/sse)', 'sse-query (/mcp/sse?method=…)'] as const;
