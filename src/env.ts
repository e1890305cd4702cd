import type { SessionObject } from './durable/SessionObject';

/** Bindings and variables of the Worker (wrangler.toml). */
export interface Env {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  /** The node catalog (src/catalog/keys.ts). */
  SPECS: KVNamespace;
  /** Comma-separated browser origins allowed on the MCP routes. */
  ALLOWED_ORIGINS?: string;
  /** Comma-separated hostnames this server answers to; empty = any (Cloudflare routing decides). `npm run dev` sets loopback names. */
  ALLOWED_HOSTS?: string;
  /** Idle time after which a session is closed by its object's alarm. */
  SESSION_IDLE_TTL_SECONDS?: string;
  /** "on" only in the test configuration: adds the tools, resources and prompts the MCP conformance suite calls. */
  CONFORMANCE_PACK?: string;
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
