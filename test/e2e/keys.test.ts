import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { connectWithKey, keysCli } from './auth';

const stateDir = inject('stateDir');

const connect = (key: string) => connectWithKey(key, 'e2e-keys');

describe('npm run keys against a running npm run dev', () => {
  it('creates a scoped key the server takes at once, lists it without the key, and revokes it', async () => {
    const created = keysCli('create', '--name', 'e2e-narrow', '--scopes', 'workflows:read,nodes:read');
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout;
    expect(key).toMatch(/^n2f_[0-9A-Za-z]{40}$/);

    const client = await connect(key);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_workflows', 'get_workflow', 'search_nodes']));
    expect(names).not.toContain('create_workflow');
    expect(names).not.toContain('list_users');
    const refused = await client.callTool({ name: 'create_workflow', arguments: { workflow: { name: 'x', nodes: [], connections: {} } } });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('needs the scope "workflows:write"') }] });
    await client.close();

    const listed = keysCli('list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/e2e-narrow.*workflows:read nodes:read.*active/);
    expect(listed.stdout + listed.stderr).not.toContain(key);

    expect(keysCli('revoke', '--name', 'e2e-narrow').status).toBe(0);
    await expect(connect(key)).rejects.toThrow(/Unauthorized/);
    expect(keysCli('list').stdout).toMatch(/e2e-narrow.*revoked/);
  }, 60_000);

  it('refuses an unknown scope and says which', () => {
    const run = keysCli('create', '--name', 'typo', '--scopes', 'workflow:write');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown scope "workflow:write"');
  });

  it('leaves no key in what the server printed while serving', () => {
    // Everything printed so far: this file's requests with the keys above, and whatever ran beside it.
    const printed = readFileSync(join(stateDir, 'wrangler.log'), 'utf8');
    expect(printed).not.toContain(inject('apiKey'));
    expect(printed).not.toMatch(/n2f_[0-9A-Za-z]{40}/);
  });
});
