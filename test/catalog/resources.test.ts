import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../support/catalog';
import { openSession, rpc } from '../support/mcp';

beforeEach(async () => {
  await loadCatalog();
});

describe('node-spec:// resources', () => {
  it('lists the catalog and reads a spec in full', async () => {
    const sessionId = await openSession();
    const { reply: list } = await rpc(sessionId, 'resources/list');
    const uris = list!.result.resources.map((r: { uri: string }) => r.uri).filter((u: string) => u.startsWith('node-spec://'));
    expect(uris).toContain('node-spec://ACTION_NODE/HTTP_REQUEST');
    expect(uris).toHaveLength(46);

    const { reply: templates } = await rpc(sessionId, 'resources/templates/list', undefined, 3);
    expect(templates!.result.resourceTemplates).toContainEqual(
      expect.objectContaining({ uriTemplate: 'node-spec://{node_type}/{+subtype}' }),
    );

    const { reply: read } = await rpc(sessionId, 'resources/read', { uri: 'node-spec://FLOW_NODE/IF' }, 4);
    const [content] = read!.result.contents;
    expect(content).toMatchObject({ uri: 'node-spec://FLOW_NODE/IF', mimeType: 'application/json' });
    expect(JSON.parse(content.text)).toMatchObject({ node_type: 'FLOW_NODE', subtype: 'IF', detail: 'full' });
  });

  it('answers an unknown spec with an error', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'resources/read', { uri: 'node-spec://FLOW_NODE/NOPE' });
    expect(reply!.error.message).toMatch(/not found/);
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
