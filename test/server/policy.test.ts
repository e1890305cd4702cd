import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Env } from '../../src/env';
import { sessionStub } from '../../src/sessions/sessionId';
import { callTimeoutMs, executionPolicy, runsLong } from '../../src/server/policy';
import { toolsFor } from '../../src/server/registry';
import { defineTool, type ToolDefinition } from '../../src/tools/tool';
import { withN8n } from '../support/hostile';
import { callWithEnv, openSession, rpc, testKey } from '../support/mcp';
import { pollTask, withTasks } from '../support/modern';
import { deliveries, pendingCalls, waitFor } from '../support/sessionStorage';

const tool = (overrides: Partial<ToolDefinition> = {}): ToolDefinition =>
  defineTool({
    name: 'policy_probe',
    title: 'Policy probe',
    description: 'A tool for the policy tests.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    execution: 'direct',
    run: () => 'ok',
    ...overrides,
  });
const deployment = (vars: Partial<Env>): Env => ({ ...env, EXECUTION_MODE: undefined, TOOL_TIMEOUT_SECONDS: undefined, ...vars }) as Env;

describe('where a tool runs', () => {
  it('is the tool’s own policy unless the deployment forces every tool to one', () => {
    expect(executionPolicy(tool({ execution: 'queued' }), deployment({}))).toBe('queued');
    expect(executionPolicy(tool({ execution: 'direct' }), deployment({}))).toBe('direct');
    expect(executionPolicy(tool({ execution: 'queued' }), deployment({ EXECUTION_MODE: 'direct' }))).toBe('direct');
    expect(executionPolicy(tool({ execution: 'direct' }), deployment({ EXECUTION_MODE: 'queued' }))).toBe('queued');
  });

  it('decides, on a deployment that forces one, whether a 2026-07-28 call becomes a task', async () => {
    const callAsTaskClient = async (mode: string, name: string, args: Record<string, unknown>) => {
      const response = await callWithEnv('/mcp', deployment({ EXECUTION_MODE: mode }), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${await testKey()}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: args,
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': withTasks },
          },
        }),
      });
      return ((await response.json()) as { result: Record<string, any> }).result;
    };
    // server_info runs where it arrives; forced to the queue, it is a task for a client that takes tasks.
    const task = await callAsTaskClient('queued', 'server_info', {});
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await pollTask(task.taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { name: 'n8n-mcp-edge' } } });
    // A queued tool forced to run directly is answered at once, even to a client that takes tasks.
    expect(await callAsTaskClient('direct', 'test_queued_echo', { text: 'here' })).toMatchObject({
      resultType: 'complete',
      structuredContent: { echo: 'here' },
    });
  });

  it('ignores an EXECUTION_MODE that names no policy', () => {
    for (const mode of ['auto', '', 'QUEUED']) {
      expect(executionPolicy(tool({ execution: 'queued' }), deployment({ EXECUTION_MODE: mode })), mode).toBe('queued');
    }
  });
});

describe('which queued calls run long (a queue of their own: test/queues/consumer.test.ts)', () => {
  it('the calls that run a workflow in n8n and wait for it; edit_workflow only when it runs the saved tests', () => {
    const tools = new Map(toolsFor(withN8n()).map((t) => [t.name, t]));
    const long = (name: string, args: Record<string, unknown> | undefined) => runsLong(tools.get(name)!, args);
    for (const name of ['try_nodes', 'test_workflow', 'run_workflow_tests']) expect(long(name, {}), name).toBe(true);
    expect(long('edit_workflow', { id: '1', operations: [], runTests: true })).toBe(true);
    expect(long('edit_workflow', { id: '1', operations: [] })).toBe(false);
    // Its arguments kept apart (too large for a message): it may run the tests.
    expect(long('edit_workflow', undefined)).toBe(true);
    for (const name of ['list_workflows', 'get_execution', 'create_workflow', 'search_nodes']) expect(long(name, {}), name).toBe(false);
  });
});

describe('how long a queued call may take', () => {
  it('is the tool’s own limit first, then the deployment’s TOOL_TIMEOUT_SECONDS', () => {
    expect(callTimeoutMs(tool({ timeoutMs: 1500 }), deployment({ TOOL_TIMEOUT_SECONDS: '30' }))).toBe(1500);
    expect(callTimeoutMs(tool(), deployment({ TOOL_TIMEOUT_SECONDS: '30' }))).toBe(30_000);
    expect(callTimeoutMs(tool(), deployment({ TOOL_TIMEOUT_SECONDS: '0.5' }))).toBe(500);
  });

  it('is 120 s when the deployment sets none, or nothing usable', () => {
    for (const seconds of [undefined, '', '0', '-5', 'soon', 'Infinity']) {
      expect(callTimeoutMs(tool(), deployment({ TOOL_TIMEOUT_SECONDS: seconds })), String(seconds)).toBe(120_000);
    }
  });

  it('is the deadline a session holds a queued call to: answered with a timeout then, and a result that comes later is dropped', async () => {
    // test_queued_slow's own limit is 1 s; it sleeps 2.5 s.
    const sessionId = await openSession();
    const started = Date.now();
    const answer = rpc(sessionId, 'tools/call', { name: 'test_queued_slow', arguments: { ms: 2500 } });
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    const { reply } = await answer;
    expect(Date.now() - started).toBeLessThan(2400);
    expect(reply?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/timed out/) }] });
    // The consumer stops waiting for the tool at the deadline; a result that still arrives is dropped.
    expect(await sessionStub(env, sessionId).deliverResult(pending!.callId, { content: [{ type: 'text', text: 'late' }] })).toBe('ignored');
    expect(await deliveries(sessionId)).toEqual({ delivered: 0, ignored: 1 });
  });
});
