import { spawnSync } from 'node:child_process';
import { inject } from 'vitest';

/** The local development key of the `npm run dev` under test, as every client sends it. */
export const authHeaders = { authorization: `Bearer ${inject('apiKey')}` };
/** For the SDK's client transports: their POSTs and their SSE GETs carry it. */
export const withKey = { requestInit: { headers: authHeaders } };

/** `npm run keys -- … --local --persist-to <the running server's state>`, as a developer runs it. */
export function keysCli(...args: string[]) {
  const run = spawnSync('npm', ['run', '--silent', 'keys', '--', ...args, '--local', '--persist-to', inject('stateDir')], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr };
}
