import { env } from 'cloudflare:workers';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SERVER_NAME, SERVER_VERSION } from '../../src/config';
import { newestRelease } from '../../src/n8n/releaseTable';
import { callDirect, callInSession } from '../support/tools';

describe('server_info', () => {
  it('answers the server, its transports, both protocol eras and the catalog’s n8n release, structured', async () => {
    const info = await callInSession('server_info', {});
    expect(info.structuredContent).toEqual({
      name: SERVER_NAME,
      version: SERVER_VERSION,
      transports: ['streamable-http (/mcp)', 'sse (/sse, /mcp/sse)', 'sse-query (/mcp/sse?method=…)'],
      protocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS],
      n8n: { catalog: newestRelease() },
      nodeClasses: expect.any(Array),
    });
  });

  it('says which node classes this deployment allows, and which this credential may use', async () => {
    const classes = (scopes: string[], vars = {}) =>
      callDirect('server_info', {}, { env: { ...env, ...vars }, scopes }).then((a) =>
        (a.json.nodeClasses as { class: string; allowed: boolean; scope: string; yours: boolean }[]).map((c) => [c.class, c.allowed, c.scope, c.yours]),
      );
    expect(await classes(['*'])).toEqual([
      ['host', false, 'workflows:host', false],
      ['code', true, 'workflows:code', true],
      ['credentials', true, 'credentials:use', true],
    ]);
    expect(await classes(['workflows:write', 'credentials:use'], { ALLOWED_NODE_CLASSES: 'host,credentials' })).toEqual([
      ['host', true, 'workflows:host', false],
      ['code', false, 'workflows:code', false],
      ['credentials', true, 'credentials:use', true],
    ]);
  });

  it("adds the configured n8n's release, or why it is unknown", async () => {
    // The contract fake at / has no editor page to read the release from.
    const info = await callDirect('server_info', {});
    expect(info.json.n8n).toEqual({ catalog: newestRelease(), instance: expect.stringMatching(/^unknown: /) });
    expect((await callDirect('server_info', {}, { env: { ...env, N8N_API_URL: undefined, N8N_API_KEY: undefined } })).json.n8n).toEqual({
      catalog: newestRelease(),
    });
  });
});
