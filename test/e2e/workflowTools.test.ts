import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withKey } from './auth';

/** Version-aware node knowledge and validation through the real SDK client, against `npm run dev`'s full catalog. */
const client = new Client({ name: 'e2e-workflows', version: '1.0.0' });

beforeAll(async () => {
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', inject('baseUrl')), withKey));
});
afterAll(() => client.close());

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0]!.text);

const details = async (subtype: string, version?: number) =>
  text(
    await call('get_node_details', {
      nodes: [{ node_type: subtype.includes('langchain') ? 'AI_AGENT_NODE' : 'FLOW_NODE', subtype, ...(version ? { version } : {}) }],
    }),
  )[0];

describe('version-aware node knowledge', () => {
  it('describes the version asked for, lists every version, and refuses one that does not exist', async () => {
    const newest = await details('n8n-nodes-base.if');
    expect(newest.node_versions).toEqual([1, 2, 2.1, 2.2, 2.3]);
    expect(newest.type_versions).toEqual([2, 2.1, 2.2, 2.3]);
    const v1 = await details('n8n-nodes-base.if', 1);
    expect(v1.type_versions).toEqual([1]);
    expect(v1.parameters.map((p: { name: string }) => p.name)).toContain('conditions');
    expect(JSON.stringify(v1.parameters)).not.toEqual(JSON.stringify(newest.parameters));
    expect(await details('n8n-nodes-base.if', 7)).toMatchObject({ error: expect.stringContaining('1, 2, 2.1, 2.2, 2.3') });
  });

  it('gives Slack an example an agent can paste, with its credential, and validate_node accepts it', async () => {
    const slack = text(await call('get_node_details', { nodes: [{ node_type: 'EXTERNAL_ACTION_NODE', subtype: 'n8n-nodes-base.slack' }] }))[0];
    expect(slack.credentials.map((c: { name: string }) => c.name)).toEqual(['slackApi', 'slackOAuth2Api']);
    expect(slack.credentials[1].when).toBe('authentication is oAuth2');
    const example = slack.examples[0].output;
    expect(example.parameters).toMatchObject({
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true },
      text: expect.any(String),
    });
    const verdict = await call('validate_node', example);
    // The fake n8n has no editor page, so its release is unknown, and the answer says so.
    expect(verdict.structuredContent).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      n8n: expect.stringMatching(/^the configured n8n's release is unknown/),
    });
  });
});

describe('validate_node and validate_workflow', () => {
  it('lists both as read-only tools with flat input schemas and an output schema', async () => {
    const { tools } = await client.listTools();
    for (const name of ['validate_node', 'validate_workflow']) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema?.properties).toHaveProperty('errors');
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/\$ref|"oneOf"/);
    }
  });

  it('answers a node’s problems as structured findings that say what is right', async () => {
    const result = await call('validate_node', { type: 'n8n-nodes-base.slack', typeVersion: 2.3, parameters: { select: 'channel', text: 'hi' } });
    const findings = result.structuredContent as { valid: boolean; errors: { code: string; path: string; message: string }[] };
    expect(findings.valid).toBe(false);
    expect(findings.errors).toEqual([expect.objectContaining({ code: 'missing_required', path: 'parameters.channelId' })]);
    expect(text(result)).toEqual(findings);
  });

  it('checks a workflow with an old HTTP Request, an agent without its model and a reference to a missing node', async () => {
    const workflow = {
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {}, position: [0, 0] },
        { name: 'Fetch', type: 'n8n-nodes-base.httpRequest', typeVersion: 1, parameters: { url: 'https://example.com' }, position: [200, 0] },
        {
          name: 'Agent',
          type: '@n8n/n8n-nodes-langchain.agent',
          typeVersion: 1.7,
          parameters: { text: "={{ $('Fecth').item.json.body }}", promptType: 'define' },
          position: [400, 0],
        },
      ],
      connections: {
        Start: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
        Fetch: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
      },
    };
    const result = (await call('validate_workflow', { workflow })).structuredContent as { valid: boolean; errors: { code: string; node: string }[] };
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => `${e.code}@${e.node}`).sort()).toEqual(['missing_ai_input@Agent', 'unknown_node_reference@Agent']);
  });
});
