import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

/**
 * An SDK client with this key, over Streamable HTTP. `npm run keys` writes the running server's local
 * state from another workerd process; just after it, the dev server now and then drops a connection
 * ("fetch failed", no HTTP answer at all), so that one failure is tried again. Any HTTP answer, 401
 * included, is final.
 */
export async function connectWithKey(key: string, name: string, attempts = 3): Promise<Client> {
  const client = new Client({ name, version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', inject('baseUrl')), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    return client;
  } catch (error) {
    if (attempts <= 1 || (error as Error).message !== 'fetch failed') throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return connectWithKey(key, name, attempts - 1);
  }
}
