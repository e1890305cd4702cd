import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../support/catalog';
import { openSession, rpc } from '../support/mcp';

beforeEach(async () => {
  await loadCatalog();
});

describe('node-spec:// resources', () => {
  it('lists the guides, not every spec (the template names them), and reads a spec in full', async () => {
    const sessionId = await openSession();
    const { reply: list } = await rpc(sessionId, 'resources/list');
    const uris: string[] = list!.result.resources.map((r: { uri: string }) => r.uri);
    expect(uris).toContain('n8n-guide://expressions');
    expect(uris.filter((u) => u.startsWith('node-spec://'))).toEqual([]);

    const { reply: templates } = await rpc(sessionId, 'resources/templates/list', undefined, 3);
    expect(templates!.result.resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: 'node-spec://{node_type}/{+subtype}' }));

    const { reply: read } = await rpc(sessionId, 'resources/read', { uri: 'node-spec://FLOW_NODE/IF' }, 4);
    const [content] = read!.result.contents;
    expect(content).toMatchObject({ uri: 'node-spec://FLOW_NODE/IF', mimeType: 'application/json' });
    expect(JSON.parse(content.text)).toMatchObject({ node_type: 'FLOW_NODE', subtype: 'IF', detail: 'full' });
  });

  it('reads a spec named under the wrong node type: its content names the right one', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'resources/read', { uri: 'node-spec://ACTION_NODE/IF' });
    const [content] = reply!.result.contents;
    expect(content.uri).toBe('node-spec://ACTION_NODE/IF');
    expect(JSON.parse(content.text)).toMatchObject({ node_type: 'FLOW_NODE', subtype: 'IF' });
  });

  it('answers an unknown spec as a resource not found, whatever its names (no -32603)', async () => {
    const sessionId = await openSession();
    let id = 10;
    for (const uri of [
      'node-spec://FLOW_NODE/NOPE',
      'node-spec://__proto__/x',
      'node-spec://ACTION_NODE/__proto__',
      'node-spec://constructor/toString',
      'node-spec://toString/constructor',
    ]) {
      const { reply } = await rpc(sessionId, 'resources/read', { uri }, id++);
      // The SDK's ResourceNotFoundError: -32602 whose data is exactly the URI.
      expect(reply!.error).toEqual({ code: -32602, message: expect.stringMatching(/^Node specification not found: /), data: { uri } });
    }
  });

  it('completes subtypes of a node type the caller names, whatever the name: none for one the catalog lacks', async () => {
    const sessionId = await openSession();
    const ref = { type: 'ref/resource', uri: 'node-spec://{node_type}/{+subtype}' };
    let id = 10;
    // A node type the catalog has: its subtypes.
    const { reply: known } = await rpc(
      sessionId,
      'completion/complete',
      { ref, argument: { name: 'subtype', value: '' }, context: { arguments: { node_type: 'FLOW_NODE' } } },
      id++,
    );
    expect(known!.result.completion.values).toEqual(['IF', 'FILTER', 'LOOP', 'MERGE', 'SWITCH', 'WAIT']);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const { reply: inType } = await rpc(
        sessionId,
        'completion/complete',
        { ref, argument: { name: 'subtype', value: '' }, context: { arguments: { node_type: name } } },
        id++,
      );
      expect(inType!.result.completion.values, name).toEqual([]);
      const { reply: asValue } = await rpc(
        sessionId,
        'completion/complete',
        { ref, argument: { name: 'subtype', value: name }, context: { arguments: { node_type: 'ACTION_NODE' } } },
        id++,
      );
      expect(asValue!.result.completion.values, name).toEqual([]);
      const { reply: asType } = await rpc(sessionId, 'completion/complete', { ref, argument: { name: 'node_type', value: name } }, id++);
      expect(asType!.result.completion.values, name).toEqual([]);
    }
  });

  it('completes node types, and subtypes within a type', async () => {
    const sessionId = await openSession();
    const ref = { type: 'ref/resource', uri: 'node-spec://{node_type}/{+subtype}' };
    const { reply: types } = await rpc(sessionId, 'completion/complete', { ref, argument: { name: 'node_type', value: 'ac' } });
    expect(types!.result.completion.values).toEqual(['ACTION_NODE']);
    const { reply: subtypes } = await rpc(
      sessionId,
      'completion/complete',
      { ref, argument: { name: 'subtype', value: 'TRIGGER_C' }, context: { arguments: { node_type: 'TRIGGER_NODE' } } },
      3,
    );
    expect(subtypes!.result.completion.values).toEqual(['TRIGGER_CRON', 'TRIGGER_CHAT', 'TRIGGER_CALENDAR']);
  });
});

describe('n8n-guide://expressions', () => {
  it('is listed and reads as the expression guide the tool descriptions point to', async () => {
    const sessionId = await openSession();
    const { reply: list } = await rpc(sessionId, 'resources/list');
    expect(list!.result.resources).toContainEqual(expect.objectContaining({ uri: 'n8n-guide://expressions', mimeType: 'text/markdown' }));
    const { reply: read } = await rpc(sessionId, 'resources/read', { uri: 'n8n-guide://expressions' }, 2);
    const text: string = read!.result.contents[0].text;
    for (const topic of [
      '={{',
      '$json.body.email',
      "$('Node name').item.json",
      '$input.all()',
      '$itemIndex',
      '$now',
      'Luxon',
      '$jmespath',
      'ONE JavaScript expression',
    ]) {
      expect(text).toContain(topic);
    }
    const { reply: tools } = await rpc(sessionId, 'tools/list', undefined, 3);
    const described = tools!.result.tools
      .filter((t: { description: string }) => t.description.includes('n8n-guide://expressions'))
      .map((t: { name: string }) => t.name);
    expect(described.sort()).toEqual(['get_guide', 'get_node_details', 'validate_node', 'validate_workflow']);
    // The tools send an agent to get_guide first: a client that only calls tools reads the same text there.
    for (const tool of tools!.result.tools.filter((t: { name: string }) => described.includes(t.name) && t.name !== 'get_guide'))
      expect(tool.description).toContain('get_guide (also the resource n8n-guide://expressions)');
    const { reply: guide } = await rpc(sessionId, 'tools/call', { name: 'get_guide', arguments: {} }, 4);
    expect(guide!.result.content[0].text).toBe(text);
  });
});
