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
    });
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
