import type { Env } from '../env';
import type { N8nConnection } from '../n8n/client';
import type { HistoryLimits, HistoryObject } from './HistoryObject';

/** What the history keeps unless HISTORY_VERSIONS, HISTORY_DAYS, HISTORY_MB and HISTORY_CALLER_MB say otherwise. */
export const DEFAULT_LIMITS: HistoryLimits = { versions: 50, days: 90, instanceBytes: 512 * 1_048_576, callerBytes: 128 * 1_048_576 };

/** The history's limits from the deployment's variables, each a positive whole number; anything else is the default. */
export function limitsOf(env: Env): HistoryLimits {
  const positive = (text: string | undefined, fallback: number) => {
    const n = Number(text);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    versions: positive(env.HISTORY_VERSIONS, DEFAULT_LIMITS.versions),
    days: positive(env.HISTORY_DAYS, DEFAULT_LIMITS.days),
    instanceBytes: positive(env.HISTORY_MB, DEFAULT_LIMITS.instanceBytes / 1_048_576) * 1_048_576,
    callerBytes: positive(env.HISTORY_CALLER_MB, DEFAULT_LIMITS.callerBytes / 1_048_576) * 1_048_576,
  };
}

/**
 * The history object of an n8n connection (versions, turns, runs, stored tests): a workspace's connection
 * has its own, named by its workspace and id (a rename keeps it; two workspaces on one n8n stay apart);
 * the deployment's own n8n has one named by a hash of its API URL (never its key), so a deployment
 * pointed at another n8n starts another history and a workflow id is never taken for another instance's.
 */
export async function historyOf(env: Env, connection: N8nConnection): Promise<DurableObjectStub<HistoryObject>> {
  if (connection.instance) return env.HISTORY.get(env.HISTORY.idFromName(`connection:${connection.instance.workspace}:${connection.instance.id}`));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(connection.apiBase.replace(/\/+$/, '')));
  const name = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return env.HISTORY.get(env.HISTORY.idFromName(`n8n:${name}`));
}

/** The history object of the connection an n8n tool's call acts on. */
export const historyFor = (ctx: { env: Env; connection: N8nConnection }): Promise<DurableObjectStub<HistoryObject>> => historyOf(ctx.env, ctx.connection);
