import type { Env } from '../../src/env';
import { bearer } from './keys';
import { callWithEnv, postJson } from './mcp';

/** MCP 2026-07-28 requests as a modern client sends them: the envelope in `_meta`, mirrored in headers. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const withTasks = { extensions: { [TASKS_EXTENSION]: {} } };

export interface ModernOptions {
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
}

let nextId = 1;

export async function modern(method: string, params: Record<string, unknown> = {}, { capabilities = {}, headers = {} }: ModernOptions = {}) {
  const id = nextId++;
  const name = params.name ?? params.uri ?? params.taskId;
  const response = await postJson(
    '/mcp',
    {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities },
      },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}), ...headers },
  );
  const text = await response.text();
  const body = text.startsWith('{') ? JSON.parse(text) : JSON.parse(/data: (.*)/.exec(text.trim().split('\n\n').pop()!)![1]!);
  return { status: response.status, headers: response.headers, body, id };
}

/** Polls tasks/get until the task leaves `working` (or `until` holds). */
export async function pollTask(taskId: string, options: ModernOptions = {}, until = (task: Record<string, unknown>) => task.status !== 'working') {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { body } = await modern('tasks/get', { taskId }, { capabilities: withTasks, ...options });
    if (!body.result || until(body.result) || Date.now() > deadline) return body.result as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A 2026-07-28 tools/call to the Worker run with `vars` changed (an n8n, CONNECTION_KEYS): it runs in the Worker, with those variables. */
export async function modernCallWith(vars: Partial<Env>, key: string, name: string, args: Record<string, unknown> = {}) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } };
  const response = await callWithEnv('/mcp', vars, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...bearer(key),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}
