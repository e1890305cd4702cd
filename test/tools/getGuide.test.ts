import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { withN8n } from '../support/hostile';
import { callDirect, callInSession, fakeN8nApi } from '../support/tools';

/** A workflow saved in the contract fake of n8n with these settings; its id. */
async function saved(settings: Record<string, unknown>): Promise<string> {
  const workflow = await fakeN8nApi('POST', '/workflows', { name: `Zone ${crypto.randomUUID()}`, nodes: [], connections: {}, settings });
  return workflow.id as string;
}

describe('get_guide', () => {
  it('answers the expression guide as text, to any credential, in a session as a client calls it', async () => {
    const guide = await callInSession('get_guide', {});
    expect(guide.isError).toBe(false);
    expect(guide.text).toMatch(/^# Writing n8n expressions\n/);
    expect(guide.text).toContain('arrow functions included');
    expect(guide.text).toContain('$json.body.items.first().price');
    // No n8n on this deployment: its time zone is said to be unknown, and how to pin it.
    expect(guide.text).toContain('No n8n is configured on this server');
    expect(guide.text).toContain('"settings": {"timezone": "Europe/Berlin"}');
    const bare = await callDirect('get_guide', {}, { env, scopes: [] });
    expect(bare.text).toBe(guide.text);
  });

  it("with an n8n, says its default time zone is unknown (n8n's API does not show it) and how to learn it", async () => {
    const guide = await callDirect('get_guide', {}, { scopes: [] });
    expect(guide.text).toContain("This server's n8n does not say its default");
    expect(guide.text).toContain('try_nodes with an Edit Fields value `"={{ $now.zoneName }}"`');
    expect(guide.text).not.toContain('No n8n is configured');
  });

  it('with workflowId, says the time zone that workflow runs in, read from n8n', async () => {
    const berlin = await saved({ executionOrder: 'v1', timezone: 'Europe/Berlin' });
    const pinned = await callDirect('get_guide', { workflowId: berlin });
    expect(pinned.text).toMatch(new RegExp(`- Workflow "Zone [^"]+" \\(${berlin}\\) runs in Europe/Berlin: its settings\\.timezone\\.`));
    const unset = await saved({ executionOrder: 'v1' });
    expect((await callDirect('get_guide', { workflowId: unset })).text).toMatch(
      new RegExp(`- Workflow "Zone [^"]+" \\(${unset}\\) sets no time zone: it runs in its n8n's default, unknown here\\.`),
    );
  });

  it('reads a workflow only for a caller with workflows:read, and only where an n8n is configured', async () => {
    const id = await saved({});
    const refused = await callDirect('get_guide', { workflowId: id }, { scopes: ['nodes:read'] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/needs the workflows:read scope/);
    const none = await callDirect('get_guide', { workflowId: id }, { env });
    expect(none).toMatchObject({ isError: true, text: expect.stringMatching(/No n8n is configured on this server/) });
    const missing = await callDirect('get_guide', { workflowId: 'nope1234' }, { env: withN8n() });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/404|not found/i);
  });
});
