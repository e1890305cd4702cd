import { describe, expect, it } from 'vitest';
import { savedSampleWorkflow, withN8n } from '../../support/hostile';
import { callDirect } from '../../support/tools';

/** A tag name of its own for each test (n8n refuses a name twice; at most 24 characters). */
const tagName = () => `t-${crypto.randomUUID().slice(0, 12)}`;

describe('the tag tools', () => {
  it('create_tag, update_tag and delete_tag: each answers the tag as n8n has it, list_tags shows it', async () => {
    const name = tagName();
    const created = await callDirect('create_tag', { name });
    expect(created.json).toEqual({ id: expect.any(String), name });
    const renamed = tagName();
    expect((await callDirect('update_tag', { id: created.json.id, name: renamed })).json).toEqual({ id: created.json.id, name: renamed });
    const listed = await callDirect('list_tags', { limit: 250 });
    expect(listed.json.tags).toContainEqual({ id: created.json.id, name: renamed });
    expect((await callDirect('delete_tag', { id: created.json.id })).json).toEqual({ deleted: true, id: created.json.id, name: renamed });
    expect((await callDirect('list_tags', { limit: 250 })).json.tags).not.toContainEqual(expect.objectContaining({ id: created.json.id }));
  });

  it("update_workflow_tags sets a workflow's tags to exactly the ids given; get_workflow_tags reads them", async () => {
    const workflowId = await savedSampleWorkflow(withN8n());
    const [a, b] = [(await callDirect('create_tag', { name: tagName() })).json, (await callDirect('create_tag', { name: tagName() })).json];
    expect((await callDirect('update_workflow_tags', { workflowId, tagIds: [a.id, b.id] })).json.tags).toEqual([a, b]);
    expect((await callDirect('update_workflow_tags', { workflowId, tagIds: [b.id] })).json.tags).toEqual([b]);
    expect((await callDirect('get_workflow_tags', { workflowId })).json).toEqual({ tags: [b] });
    expect((await callDirect('update_workflow_tags', { workflowId, tagIds: [] })).json).toEqual({ tags: [] });
  });

  it("answers n8n's refusal of a name it has as an error result", async () => {
    const name = tagName();
    await callDirect('create_tag', { name });
    const again = await callDirect('create_tag', { name });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/\(409\): Tag already exists/);
  });
});
