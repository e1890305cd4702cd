import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeTool } from '../../src/server/runTool';
import { defineTool, refusal, type ToolDefinition } from '../../src/tools/tool';
import { loadCatalog, seedSpecs } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { n8nSpecs } from '../support/n8nCatalog';
import {
  directContext,
  nullPrototypeAt,
  productionTools,
  renamedNode,
  savedSampleWorkflow,
  withN8n,
  SAMPLE_WORKFLOW,
  sampleArguments,
  stringPositions,
  withNameAt,
} from '../support/hostile';
import { pollutedSince, prototypesSnapshot, restorePrototypes } from '../support/specialNames';
import { initializeRequest, messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import { modern, pollTask, withTasks } from '../support/modern';

/**
 * ToolContext.caller: every way a tool can run hands it the principal the Worker authenticated (id,
 * subject, scopes), since what a tool may show depends on the scopes (user data needs users:read).
 */
describe('the caller a tool is given', () => {
  const narrowKey = createKey(['nodes:read', 'workflows:read']);
  const expected = async () => {
    const { record } = await narrowKey;
    return { id: `key_${record.id}`, subject: `key_${record.id}`, scopes: ['nodes:read', 'workflows:read'] };
  };

  it('in a session, run directly in its object and through the queue', async () => {
    const headers = bearer((await narrowKey).key);
    const sessionId = await openSession(undefined, headers);
    for (const name of ['test_caller', 'test_queued_caller']) {
      const response = await postJson(
        '/mcp',
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } },
        { ...headers, ...sessionHeaders(sessionId) },
      );
      const [reply] = (await messagesOf(response)).filter((m) => m.id === 2);
      expect(reply?.result.structuredContent, name).toEqual(await expected());
    }
  });

  it('in a 2026-07-28 request, run in the Worker and as a task', async () => {
    const headers = bearer((await narrowKey).key);
    for (const name of ['test_caller', 'test_queued_caller']) {
      const { body } = await modern('tools/call', { name, arguments: {} }, { headers });
      expect(body.result.structuredContent, name).toEqual(await expected());
    }
    const { body } = await modern('tools/call', { name: 'test_queued_caller', arguments: {} }, { capabilities: withTasks, headers });
    expect(body.result.resultType).toBe('task');
    const task = await pollTask(body.result.taskId, { headers });
    expect(task).toMatchObject({ status: 'completed', result: { structuredContent: await expected() } });
  });
});

/**
 * Every tool, run with a name that is special on ordinary objects in every string position of valid
 * arguments (each string, each object key, and a workflow's node renamed everywhere it is used): the
 * call ends with a result (an error result is fine), Object.prototype and the other built-in
 * prototypes are as they were, and the server still serves the next request. The n8n tools reach the
 * contract fake of n8n (test/fakes/n8n); `npm run fuzz` tries more names and shapes.
 */
const NAMES = ['__proto__', 'constructor', 'toString'];

const n8nEnv = withN8n();
const context = () => directContext(n8nEnv);

const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));
// n8n's own node descriptions, so workflows meet the rules they are checked by in a deployment.
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

/** A workflow saved for one test: others change or delete theirs. */
const savedWorkflowId = () => savedSampleWorkflow(n8nEnv);

function variants(tool: ToolDefinition, ids: Record<string, string>): string[] {
  const args = sampleArguments(tool, ids);
  const out = [JSON.stringify(args), ...stringPositions(args).flatMap((position) => NAMES.map((name) => withNameAt(args, position, name)))];
  if ('workflow' in args) {
    for (const node of SAMPLE_WORKFLOW.nodes) {
      for (const name of NAMES) {
        for (const sourcesAs of ['name', 'upper case', 'id'] as const) {
          out.push(JSON.stringify(args).replace(JSON.stringify(args.workflow), renamedNode(SAMPLE_WORKFLOW, node.name, name, sourcesAs)));
        }
      }
    }
  }
  return out;
}

describe('every tool, with prototype names in every string position', () => {
  const tools = productionTools(n8nEnv);
  it('covers the tools a deployment with n8n serves', () => {
    expect(tools.length).toBeGreaterThanOrEqual(40);
  });

  for (const tool of tools) {
    it(`${tool.name}: answers, leaves the built-in prototypes alone, and the next request is served`, async () => {
      const before = prototypesSnapshot();
      let ran = 0;
      for (const text of variants(tool, { id: await savedWorkflowId() })) {
        const parsed = tool.input.safeParse(JSON.parse(text));
        // What the schema refuses never reaches the tool (the SDK answers -32602).
        if (!parsed.success) continue;
        const result = await invokeTool(tool, parsed.data, context());
        expect(result.content, text.slice(0, 300)).toBeInstanceOf(Array);
        expect(nullPrototypeAt(result), text.slice(0, 300)).toBeUndefined();
        expect(pollutedSince(before), text.slice(0, 300)).toEqual([]);
        ran++;
      }
      expect(ran).toBeGreaterThan(0);
      const next = await postJson('/mcp', initializeRequest());
      expect(next.status).toBe(200);
    });
  }
});

describe('defineTool', () => {
  const tool = (name: string) => ({ name, title: 't', description: 'd', input: z.object({}), annotations: {}, execution: 'direct' as const, run: () => 'ok' });

  it('takes a name Claude and n8n accept', () => {
    expect(defineTool(tool('get_node-types_2')).name).toBe('get_node-types_2');
    expect(defineTool(tool('x'.repeat(64))).name).toHaveLength(64);
  });

  it('refuses any other name when its module loads, naming it', () => {
    for (const name of ['', 'has space', 'dotted.name', 'x'.repeat(65), 'ünïcode']) {
      expect(() => defineTool(tool(name)), name).toThrow(`Invalid tool name "${name}"`);
    }
  });

  it('takes an output schema on a read-only tool only: a change answered past the answer budget has no structuredContent to give', () => {
    const output = z.object({ a: z.number() });
    expect(defineTool({ ...tool('reads'), output, annotations: { readOnlyHint: true } }).output).toBe(output);
    expect(() => defineTool({ ...tool('changes'), output })).toThrow('Tool "changes" declares an output schema, so it must be read-only (readOnlyHint)');
  });
});

describe('refusal', () => {
  it('is an error result whose text is the details as JSON, passed through as it is', async () => {
    const details = { refused: 'validation', errors: [{ code: 'x' }] };
    const refuses = defineTool({
      name: 'refuses',
      title: 't',
      description: 'd',
      input: z.object({}),
      annotations: {},
      execution: 'direct',
      run: () => refusal(details),
    });
    const result = await invokeTool(refuses, {}, directContext(withN8n()));
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: JSON.stringify(details) }] });
  });
});
