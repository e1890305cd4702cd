import { describe, expect, it } from 'vitest';
import { callDirect } from '../../support/tools';

describe('the project tools', () => {
  it('create_project answers the project; list_projects shows it; delete_project removes it', async () => {
    const name = `Project ${crypto.randomUUID()}`;
    const created = await callDirect('create_project', { name });
    expect(created.json).toMatchObject({ id: expect.any(String), name, type: 'team' });
    expect((await callDirect('list_projects', { limit: 250 })).json.projects).toContainEqual(expect.objectContaining({ id: created.json.id, name }));
    expect((await callDirect('delete_project', { id: created.json.id })).json).toEqual({ deleted: true, id: created.json.id });
    expect((await callDirect('list_projects', { limit: 250 })).json.projects).not.toContainEqual(expect.objectContaining({ id: created.json.id }));
  });

  it("leaves out a personal project's name, made of its owner's, for a caller without users:read", async () => {
    const personal = (answer: { json: { projects: { type: string }[] } }) => answer.json.projects.find((p) => p.type === 'personal');
    expect(personal(await callDirect('list_projects', {}))).toMatchObject({ name: expect.stringContaining('owner@example.com') });
    const narrow = personal(await callDirect('list_projects', {}, { scopes: ['projects:read'] }));
    expect(narrow).toBeDefined();
    expect(narrow).not.toHaveProperty('name');
  });
});
