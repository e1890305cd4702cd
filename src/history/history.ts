import type { Env } from '../env';
import type { HistoryObject, Retention } from './HistoryObject';

/** Versions kept per workflow and for how long, unless HISTORY_VERSIONS / HISTORY_DAYS say otherwise. */
export const DEFAULT_RETENTION: Retention = { versions: 50, days: 90 };

/** HISTORY_VERSIONS and HISTORY_DAYS, each a positive whole number; anything else is the default. */
export function retentionOf(env: Env): Retention {
  const positive = (text: string | undefined, fallback: number) => {
    const n = Number(text);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return { versions: positive(env.HISTORY_VERSIONS, DEFAULT_RETENTION.versions), days: positive(env.HISTORY_DAYS, DEFAULT_RETENTION.days) };
}

/**
 * The history object of the n8n instance at `apiBase`: one per instance, named by a hash of its API URL
 * (never its key), so a deployment pointed at another n8n starts another history and a workflow id is
 * never taken for another instance's.
 */
export async function historyOf(env: Env, apiBase: string): Promise<DurableObjectStub<HistoryObject>> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiBase.replace(/\/+$/, '')));
  const name = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return env.HISTORY.get(env.HISTORY.idFromName(`n8n:${name}`));
}
