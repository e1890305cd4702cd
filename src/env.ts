import type { SessionObject } from './sessions/SessionObject';
import type { TaskObject } from './tasks/TaskObject';
import type { HistoryObject } from './history/HistoryObject';
import type { ToolCallMessage } from './queues/message';

/** Bindings and variables of the Worker (wrangler.toml). */
export interface Env {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  /** One object per task of the 2026-07-28 tasks extension (src/tasks/TaskObject.ts). */
  TASKS: DurableObjectNamespace<TaskObject>;
  /** One object per n8n instance: the versions of its workflows this server changed (src/history). */
  HISTORY: DurableObjectNamespace<HistoryObject>;
  /** Versions of a workflow kept in the history, newest first (default 50). */
  HISTORY_VERSIONS?: string;
  /** Days a version is kept in the history (default 90). */
  HISTORY_DAYS?: string;
  /** Megabytes of stored (compressed) versions the history of one n8n keeps at most (default 512). */
  HISTORY_MB?: string;
  /** Megabytes of stored versions kept for one caller's changes at most (default 128). */
  HISTORY_CALLER_MB?: string;
  /** Runs (test_workflow, run_workflow_tests, try_nodes, edit_workflow with runTests) one caller may have going at once (default 3). */
  RUNS_PER_CALLER?: string;
  /** The node catalog (src/catalog/keys.ts). */
  SPECS: KVNamespace;
  /** Producer of queued tool calls (src/queues). */
  TOOL_CALLS: Queue<ToolCallMessage>;
  /** Queued calls that run a workflow in n8n and wait for it, moved here by the tool-calls consumer so they hold no short call (src/server/policy.ts). */
  TOOL_CALLS_LONG: Queue<ToolCallMessage>;
  /** "direct" or "queued" forces every tool to one execution mode; unset, each tool's own policy. */
  EXECUTION_MODE?: string;
  /** Deadline of queued calls, unless a tool sets its own (default 120). */
  TOOL_TIMEOUT_SECONDS?: string;
  /** Comma-separated browser origins allowed on the MCP routes. */
  ALLOWED_ORIGINS?: string;
  /** Comma-separated hostnames this server answers to; empty = any (Cloudflare routing decides). `npm run dev` sets loopback names. */
  ALLOWED_HOSTS?: string;
  /** Idle time after which a session is closed by its object's alarm. */
  SESSION_IDLE_TTL_SECONDS?: string;
  /** The n8n instance the n8n tools drive (secret): its URL, and an API key from its Settings → n8n API. */
  N8N_API_URL?: string;
  N8N_API_KEY?: string;
  /** API keys by SHA-256 (src/auth/apiKeys.ts; `npm run keys`). */
  API_KEYS: KVNamespace;
  /** Seconds an isolate keeps a key record it read from API_KEYS (src/auth/keyCache.ts); "0" reads KV on every request. */
  API_KEY_CACHE_SECONDS?: string;
  /** OAuth clients, grants and tokens (@cloudflare/workers-oauth-provider; hashed and encrypted by it). */
  OAUTH_KV: KVNamespace;
  /** Requests per principal (wrangler.toml [[ratelimits]]). */
  REQUEST_LIMITER?: RateLimit;
  /** Requests per workspace, across its keys and grants (src/auth/rateLimit.ts). */
  WORKSPACE_LIMITER?: RateLimit;
  /** search_nodes calls per principal: a tighter budget. */
  SEARCH_LIMITER?: RateLimit;
  /** Credentials tried on the OAuth consent page, per IP address. */
  SIGN_IN_LIMITER?: RateLimit;
  /** OAuth client registrations and token requests, per IP address. */
  OAUTH_LIMITER?: RateLimit;
  /** Workers Analytics Engine dataset for metrics (src/observability/events.ts). */
  METRICS?: AnalyticsEngineDataset;
  /** "off" turns both rate limits off (load tests: one key driving many sessions). */
  RATE_LIMITS?: string;
  /** "true" serves callers without a credential, with every scope: only for a private network. */
  ALLOW_ANONYMOUS?: string;
  /** "true" lets the landing page's node catalog explorer answer visitors without a key, with nodes:read only. */
  PUBLIC_CATALOG?: string;
  /**
   * Comma-separated node classes a caller with the class's scope may use (host, code, credentials; "none":
   * no class); default "code,credentials" (src/auth/nodePolicy.ts).
   */
  ALLOWED_NODE_CLASSES?: string;
  /** Comma-separated `<node type or package.*>=<host|code|credentials|none>`: node types moved into or out of the classes. */
  NODE_CLASS_OVERRIDES?: string;
  /** Secret: lets the operator approve OAuth clients on the consent page without an API key. */
  OPERATOR_PASSWORD?: string;
  /** "warn": log only failed requests and tool runs; unset or "info": a line for every request too. */
  LOG_LEVEL?: string;
  /**
   * Secret, at least 32 bytes: seals the `requestState` of multi-round-trip requests (MCP 2026-07-28),
   * the same in every isolate. Without it no tool asks for input across rounds.
   */
  REQUEST_STATE_KEY?: string;
  /** Secret: turns workspaces on (docs/workspaces.md); the key ring their n8n API keys are sealed under, `id:base64key` entries newest first (`npm run keys -- secret`). */
  CONNECTION_KEYS?: string;
  /** "true" lets workspaces' n8n connections be at private and link-local addresses (src/workspaces/connectionUrl.ts): only for a deployment inside a private network. */
  ALLOW_PRIVATE_N8N?: string;
}

type ProjectEnv = Env;

declare global {
  namespace Cloudflare {
    // Types `env` and `exports` from "cloudflare:workers" (used by tests) after this project.
    interface Env extends ProjectEnv {}
    interface GlobalProps {
      mainModule: typeof import('./worker');
      durableNamespaces: 'SessionObject';
    }
  }
}
