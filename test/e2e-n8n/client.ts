import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, inject } from 'vitest';

export type Json = Record<string, any>;

/** A key for this server with only these scopes (`npm run keys -- create … --local`, as a developer makes one). */
export function scopedKey(name: string, scopes: string): string {
  const run = spawnSync(
    'npm',
    ['run', '--silent', 'keys', '--', 'create', '--name', name, '--scopes', scopes, '--local', '--persist-to', inject('serverStateDir')],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`npm run keys: ${run.stderr}`);
  return run.stdout.trim();
}

/** A server of this project and the n8n it drives, when a test file starts its own (read once its beforeAll has run). */
export interface OwnInstance {
  serverUrl: string;
  serverKey: string;
  n8nUrl: string;
  n8nKey: string;
}

/**
 * The SDK client of a test file, connected to this server (which drives the real n8n) for the file's
 * tests, with the server's own key (every scope) or `key`; or to the file's own server (`instance`).
 * `onAnswer` sees every tool result whole (a file that searches them for secrets).
 */
/**
 * Connects a real SDK client to the server at `serverUrl` with `key`. Just after `npm run keys` wrote the
 * server's state, its first connection may drop (test/e2e/keys.test.ts): once more then.
 */
export async function connectTo(client: Client, serverUrl: string, key: string): Promise<void> {
  const connect = () =>
    client.connect(new StreamableHTTPClientTransport(new URL('/mcp', serverUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  await connect().catch(async (error: Error) => {
    if (error.message !== 'fetch failed') throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await connect();
  });
}

export function connectedClient(name: string, key?: string, instance?: () => OwnInstance, onAnswer?: (result: unknown) => void) {
  const client = new Client({ name, version: '1.0.0' });
  beforeAll(() => connectTo(client, instance?.().serverUrl ?? inject('serverUrl'), key ?? instance?.().serverKey ?? inject('serverKey')));
  afterAll(() => client.close());

  /** A tool call's answer: whether it is an error, its text, and that text as JSON when it is JSON. */
  async function call(tool: string, args: Json = {}, signal?: AbortSignal): Promise<{ isError: boolean; text: string; json: Json }> {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 110_000, ...(signal ? { signal } : {}) });
    onAnswer?.(result);
    const text = (result.content as { text: string }[])[0]!.text;
    let json: Json = {};
    try {
      json = JSON.parse(text);
    } catch {
      // an error sentence
    }
    return { isError: result.isError === true, text, json };
  }

  /** The call's JSON answer; fails the test if the tool answered with an error. */
  async function ok(tool: string, args: Json = {}): Promise<Json> {
    const result = await call(tool, args);
    expect(result.isError, `${tool}: ${result.text}`).toBe(false);
    return result.json;
  }

  /** The text of an error answer; fails the test if the call succeeded. */
  async function refused(tool: string, args: Json = {}): Promise<string> {
    const result = await call(tool, args);
    expect(result.isError, `${tool} should have been refused`).toBe(true);
    return result.text;
  }

  return { client, call, ok, refused };
}

/** n8n's own API, to read back what the tools did (on the file's own n8n with `instance`). */
export async function n8nApi(method: string, path: string, body?: unknown, instance?: OwnInstance): Promise<Json> {
  const response = await fetch(`${instance?.n8nUrl ?? inject('realN8nUrl')}/api/v1${path}`, {
    method,
    headers: { 'x-n8n-api-key': instance?.n8nKey ?? inject('realN8nKey'), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : {};
}
