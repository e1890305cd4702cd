import { describe, expect, it } from 'vitest';
import { callDirect, sentToN8n } from '../../support/tools';

const SECRET = 'ghp_secret_token_that_must_not_come_back';

describe('the credential tools', () => {
  it('create_credential sends the secret to n8n and never answers it; list_credentials shows id, name and type only', async () => {
    const name = `GitHub ${crypto.randomUUID()}`;
    const { result: created, sent } = await sentToN8n(() => callDirect('create_credential', { name, type: 'githubApi', data: { accessToken: SECRET } }));
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/credentials', body: { name, type: 'githubApi', data: { accessToken: SECRET } } });
    expect(created.text).not.toContain(SECRET);
    expect(Object.keys(created.json).sort()).toEqual(['createdAt', 'id', 'name', 'type', 'updatedAt']);
    const listed = await callDirect('list_credentials', { limit: 250 });
    expect(listed.text).not.toContain(SECRET);
    const mine = listed.json.credentials.find((c: { id: string }) => c.id === created.json.id);
    // n8n's answer names the projects it is shared with; what a caller needs is what it is.
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'id', 'name', 'type', 'updatedAt']);
  });

  it('delete_credential answers what it deleted, without its data', async () => {
    const created = await callDirect('create_credential', { name: `To delete ${crypto.randomUUID()}`, type: 'githubApi', data: { accessToken: SECRET } });
    const deleted = await callDirect('delete_credential', { id: created.json.id });
    expect(deleted.json).toMatchObject({ deleted: true, id: created.json.id, name: created.json.name, type: 'githubApi' });
    expect(deleted.text).not.toContain(SECRET);
    expect(deleted.json).not.toHaveProperty('usageScope');
  });

  it("get_credential_schema answers n8n's schema of the type", async () => {
    const schema = await callDirect('get_credential_schema', { credentialTypeName: 'githubApi' });
    expect(schema.json).toMatchObject({ type: 'object', required: ['accessToken'] });
  });

  it("answers n8n's refusal of a type it does not have as an error result, with n8n's words", async () => {
    const refused = await callDirect('create_credential', { name: 'x', type: 'unknownApi', data: {} });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/\(400\): Credential type "unknownApi" does not exist/);
  });
});
