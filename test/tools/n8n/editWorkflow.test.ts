import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { savedSampleWorkflow, withN8n } from '../../support/hostile';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, savedN8nWorkflow } from '../../support/tools';

/** edit_workflow against the contract fake of n8n, judged by n8n's own node descriptions. */
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

/** A saved workflow (Webhook → IF → Code → Respond to Webhook, one node named "__proto__"); its id. */
const saved = () => savedSampleWorkflow(withN8n());
const setNode = (name: string) => ({ name, type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [0, 0], parameters: {} });

describe('edit_workflow', () => {
  it('saves the operations applied, and answers the new versionId', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'addNode', node: setNode('Added') },
        { type: 'addConnection', source: '__proto__', target: 'Added' },
      ],
    });
    expect(answer.json).toMatchObject({ saved: true, id, operations: 2, valid: expect.any(Boolean) });
    const after = await savedN8nWorkflow(id);
    expect(after.versionId).not.toBe(before.versionId);
    expect(answer.json.versionId).toBe(after.versionId);
    expect(after.nodes.map((n) => n.name)).toContain('Added');
  });

  it('with validateOnly, answers the edited workflow and saves nothing', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'addNode', node: setNode('Preview') }], validateOnly: true });
    expect(answer.json).toMatchObject({
      saved: false,
      preview: true,
      workflow: { nodes: expect.arrayContaining([expect.objectContaining({ name: 'Preview' })]) },
    });
    expect(await savedN8nWorkflow(id)).toEqual(before);
  });

  it('refuses, saving nothing, when the workflow changed since the versionId the caller read', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'addNode', node: setNode('Late') }], expectedVersionId: 'an-older-version' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      new RegExp(`has changed since the copy you started from \\(versionId an-older-version; n8n has ${before.versionId}, .*Nothing was saved`),
    );
    expect(await savedN8nWorkflow(id)).toEqual(before);
  });

  it('saves nothing when an operation fails, naming which and why', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'addNode', node: setNode('Fine') },
        { type: 'removeNode', name: 'No such node' },
      ],
    });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^Error: Operation 1 \(removeNode\) failed: .*No such node.*\. Nothing was saved\.$/);
    expect(await savedN8nWorkflow(id)).toEqual(before);
  });

  it('refuses an updateNode whose list drops sub-fields an entry needs, and says the list was replaced; setParameter changes the one value', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const dropped = await callDirect('edit_workflow', {
      id,
      operations: [{ type: 'updateNode', name: 'Valid Request?', changes: { parameters: { conditions: { conditions: [{ rightValue: 'x' }] } } } }],
    });
    expect(dropped.isError).toBe(true);
    expect(dropped.json).toMatchObject({ saved: false, operation: { index: 0, type: 'updateNode' } });
    const errors = (dropped.json as { errors: { node: string; path?: string }[] }).errors;
    expect(errors.some((e) => e.node === 'Valid Request?' && e.path?.startsWith('parameters.conditions.conditions[0]'))).toBe(true);
    expect(await savedN8nWorkflow(id)).toEqual(before);

    const preview = await callDirect('edit_workflow', {
      id,
      validateOnly: true,
      operations: [{ type: 'updateNode', name: 'Valid Request?', changes: { parameters: { conditions: { conditions: [] } } } }],
    });
    expect(preview.json).toMatchObject({ replacedLists: [{ node: 'Valid Request?', path: '/conditions/conditions' }] });

    const set = await callDirect('edit_workflow', {
      id,
      operations: [{ type: 'setParameter', name: 'Valid Request?', path: '/conditions/conditions/0/rightValue', value: 'x' }],
    });
    expect(set.json).toMatchObject({ saved: true });
    expect(set.json).not.toHaveProperty('replacedLists');
    const condition = (w: typeof before) =>
      (w.nodes.find((n) => n.name === 'Valid Request?')!.parameters as { conditions: { conditions: object[] } }).conditions.conditions[0];
    expect(condition(await savedN8nWorkflow(id))).toEqual({ ...condition(before), rightValue: 'x' });
  });

  it('saves nothing when the edit would add an error, naming the operation it came from', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'addNode', node: setNode('Fine') },
        { type: 'addNode', node: { ...setNode('Bad'), type: 'n8n-nodes-base.notAThing' } },
      ],
    });
    expect(answer.isError).toBe(true);
    expect(answer.json).toMatchObject({ saved: false, operation: { index: 1, type: 'addNode' }, errors: [expect.objectContaining({ node: 'Bad' })] });
    expect(await savedN8nWorkflow(id)).toEqual(before);
  });

  it('adds a tag n8n does not have yet by creating it', async () => {
    const id = await saved();
    const tag = `new-${crypto.randomUUID().slice(0, 8)}`;
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'addTag', tag }] });
    expect(answer.json).toMatchObject({ saved: true, tags: [tag] });
    expect((await savedN8nWorkflow(id)).tags.map((t) => t.name)).toEqual([tag]);
  });

  it('refuses, saving nothing, to create a tag for a caller without tags:write; a tag n8n has is added', async () => {
    const id = await saved();
    const before = await savedN8nWorkflow(id);
    const writer = { scopes: ['workflows:write'] };
    const tag = `new-${crypto.randomUUID().slice(0, 8)}`;
    const refused = await callDirect(
      'edit_workflow',
      {
        id,
        operations: [
          { type: 'updateName', name: 'Tagged' },
          { type: 'addTag', tag },
        ],
      },
      writer,
    );
    expect(refused.text).toMatch(
      new RegExp(
        `The tag "${tag}" does not exist in n8n, and creating a tag needs the scope "tags:write", which this credential does not have\\. Nothing was changed`,
      ),
    );
    expect(await savedN8nWorkflow(id)).toEqual(before);
    expect((await callDirect('list_tags', {})).json.tags.map((t: { name: string }) => t.name)).not.toContain(tag);
    await callDirect('create_tag', { name: tag });
    expect((await callDirect('edit_workflow', { id, operations: [{ type: 'addTag', tag }] }, writer)).json).toMatchObject({ saved: true, tags: [tag] });
  });

  it('adds a node with a "__proto__" parameter and connects from a node named "__proto__"', async () => {
    const id = await saved();
    const operations = `[{"type":"addNode","node":{"name":"Added","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"__proto__":{"a":1}}}},{"type":"addConnection","source":"__proto__","target":"Added"}]`;
    expect((await callDirect('edit_workflow', JSON.parse(`{"id":"${id}","operations":${operations},"validateOnly":false}`))).json).toMatchObject({
      saved: true,
    });
    const after = await savedN8nWorkflow(id);
    expect(Object.hasOwn(after.connections, '__proto__')).toBe(true);
    expect(Object.hasOwn(after.nodes.find((n) => n.name === 'Added')!.parameters, '__proto__')).toBe(true);
  });
});
