/**
 * Calling one tool the two ways the tests do: in a session over /mcp (the whole way a client's call
 * goes), or directly through the registry and invokeTool (faster; the n8n tools against the contract
 * fake of n8n). Both answer the text of the result, its JSON where it has some, and whether it is an error.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { inject, vi } from 'vitest';
import type { Principal } from '../../src/principal';
import type { Env } from '../../src/env';
import { invokeTool } from '../../src/server/runTool';
import { toolsFor } from '../../src/server/registry';
import { directContext, withN8n } from './hostile';
import { openSession, rpc } from './mcp';

export interface ToolAnswer {
  isError: boolean;
  text: string;
  /** The text read as JSON; undefined when it is not JSON (a ToolError's sentence). */
  json: any;
  structuredContent?: Record<string, unknown>;
}

function answerOf(result: CallToolResult): ToolAnswer {
  const text = (result.content[0] as { text: string } | undefined)?.text ?? '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    isError: result.isError === true,
    text,
    json,
    ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
  };
}

/** Calls the tool in a fresh session, as a client would. */
export async function callInSession(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const sessionId = await openSession();
  const { reply } = await rpc(sessionId, 'tools/call', { name, arguments: args });
  if (!reply?.result) throw new Error(`${name}: no result: ${JSON.stringify(reply)}`);
  return answerOf(reply.result as CallToolResult);
}

/**
 * Runs the tool where it is defined, by default with the contract fake of n8n configured and for a
 * caller with every scope; arguments go through its input schema first.
 */
export async function callDirect(
  name: string,
  args: Record<string, unknown>,
  { env: toolEnv = withN8n(), scopes, subject }: { env?: Env; scopes?: string[]; subject?: string } = {},
): Promise<ToolAnswer> {
  const tool = toolsFor(toolEnv).find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} on this deployment`);
  const context = directContext(toolEnv);
  const caller: Principal = { ...context.caller, ...(scopes ? { scopes } : {}), ...(subject ? { id: subject, subject } : {}) };
  return answerOf(await invokeTool(tool, tool.input.parse(args), { ...context, caller }, 'direct'));
}

/** A request the n8n client sent: the path under /api/v1, and the body it carried, read back as JSON. */
export interface SentRequest {
  method: string;
  path: string;
  query: string;
  body?: unknown;
}

/** What `work` sends to n8n's API (it still reaches the fake), in order. */
export async function sentToN8n<T>(work: () => Promise<T>): Promise<{ result: T; sent: SentRequest[] }> {
  const sent: SentRequest[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const at = url.pathname.indexOf('/api/v1/');
    if (at >= 0) {
      const body = typeof init?.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {};
      sent.push({ method: init?.method ?? 'GET', path: url.pathname.slice(at + '/api/v1'.length), query: url.search, ...body });
    }
    return realFetch(input, init);
  });
  try {
    return { result: await work(), sent };
  } finally {
    spy.mockRestore();
  }
}

/** A request to the contract fake of n8n's public API (`/workflows/…`, with its query), as another client of n8n would send it; its JSON answer. */
export async function fakeN8nApi(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${inject('n8nUrl')}/api/v1${path}`, {
    method,
    headers: { 'x-n8n-api-key': inject('n8nKey'), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, any>>;
}

/** The contract fake of n8n's levers (test/fakes/n8n/server.ts): GET `requests`, POST `config` or `executions`. */
export const fakeN8n = (path: string, body?: unknown): Promise<any> =>
  fetch(`${inject('n8nUrl')}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());

/** A workflow as the contract fake of n8n has it saved now. */
export const savedN8nWorkflow = (id: string) =>
  fakeN8nApi('GET', `/workflows/${id}`) as Promise<{
    versionId: string;
    connections: Record<string, unknown>;
    nodes: { name: string; type: string; parameters: object }[];
    tags: { name: string }[];
  }>;
