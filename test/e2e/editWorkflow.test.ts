import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withKey } from './auth';
import { N8N_TEST_KEY } from './wranglerDev';

/** edit_workflow's judgement of what it reads from n8n and what it would save, through the SDK client against `wrangler dev` and the fake n8n. */
const client = new Client({ name: 'e2e-edit-workflow', version: '1.0.0' });
beforeAll(() => client.connect(new StreamableHTTPClientTransport(new URL('/mcp', inject('baseUrl')), withKey)));
afterAll(() => client.close());

const call = async (args: Record<string, unknown>) => {
  const result = (await client.callTool({ name: 'edit_workflow', arguments: args })) as CallToolResult;
  return { isError: result.isError === true, text: (result.content[0] as { text: string }).text };
};

/** Saves a workflow straight into the fake n8n (as someone may have, through n8n's own editor or API). */
async function inN8n(nodes: Record<string, unknown>[], connections: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${inject('n8nUrl')}/api/v1/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-n8n-api-key': N8N_TEST_KEY },
    body: JSON.stringify({ name: `edit-${nodes.length}`, nodes, connections, settings: {} }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const set = (name: string) => ({ name, type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [0, 0], parameters: {} });
const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });

describe('edit_workflow, on workflows however large or broken', () => {
  it('refuses a workflow in n8n past the limits, naming the limit, before changing anything', async () => {
    const id = await inN8n(
      Array.from({ length: 2_600 }, (_, i) => set(`Node ${i}`)),
      {},
    );
    const { isError, text } = await call({ id, operations: [{ type: 'updateName', name: 'Renamed' }] });
    expect(isError).toBe(true);
    expect(text).toBe(`Error: Workflow ${id} has 2,600 nodes; the tools check at most 2,500. Nothing was changed.`);
  });

  it('finds the one error an edit brings into a workflow with 150, and the operation that brought it', async () => {
    const broken = Array.from({ length: 150 }, (_, i) => `Broken ${i}`);
    const id = await inN8n([set('Set'), ...broken.map(set)], Object.fromEntries(broken.map((name) => [name, to(`Gone ${name}`)])));
    const operations = [
      { type: 'moveNode', name: 'Set', position: [1, 1] },
      { type: 'addConnection', source: 'Set', target: 'Broken 0', targetInput: 3 },
      { type: 'moveNode', name: 'Set', position: [2, 2] },
    ];
    const { isError, text } = await call({ id, operations });
    expect(isError).toBe(true);
    const refusal = JSON.parse(text);
    expect(refusal).toMatchObject({
      saved: false,
      operation: { index: 1, type: 'addConnection' },
      errors: [{ code: 'input_index_out_of_range', node: 'Set' }],
    });
    expect(refusal.errors).toHaveLength(1);
    const preview = JSON.parse((await call({ id, operations: [operations[0]], validateOnly: true })).text);
    expect(preview).toMatchObject({ saved: false, preview: true, valid: false, errors: { length: 100 }, omitted: { errors: 50 } });
  });
});
