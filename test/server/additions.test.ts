import { env } from 'cloudflare:workers';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Env } from '../../src/env';
import { addToServer, serverAdditions } from '../../src/server/additions';
import { createMcpServer } from '../../src/server/createServer';
import { toolsFor } from '../../src/server/registry';
import { defineTool } from '../../src/tools/tool';

/** What the test entry added as it loaded (test/entry/worker.ts), put back after each test. */
const entry = serverAdditions()!;
afterEach(() => addToServer(entry));

const added = defineTool({
  name: 'added_probe',
  title: 'Added probe',
  description: 'A tool an entry adds.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
  execution: 'direct',
  run: () => 'added',
});
const execute = async () => ({ content: [] });

describe('what an entry adds to every MCP server', () => {
  it('is what the entry module gave as it loaded: here the test entry’s pack, tools included', () => {
    expect(entry.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_queued_echo', 'test_caller', 'slow_compute']));
    expect(toolsFor(env)).toEqual(expect.arrayContaining([...entry.tools]));
  });

  it('installs on each server as it is created, told the deployment and the era it serves', () => {
    const installed: [McpServer, Env, string][] = [];
    addToServer({ tools: [], install: (server, serverEnv, era) => void installed.push([server, serverEnv, era]) });
    const session = createMcpServer(env, { execute, era: 'sessions' });
    const modern = createMcpServer(env, { execute, era: 'stateless' });
    expect(installed).toEqual([
      [session, env, 'sessions'],
      [modern, env, 'stateless'],
    ]);
  });

  it('serves its tools through the registry beside the deployment’s, in place of what was added before', () => {
    addToServer({ tools: [added], install: () => {} });
    const names = toolsFor(env).map((t) => t.name);
    expect(names).toContain('added_probe');
    expect(names).toContain('server_info');
    expect(names).not.toContain('test_queued_echo');
  });
});
