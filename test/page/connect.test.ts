import { describe, expect, it } from 'vitest';
import { connectGuides, KEY_PLACEHOLDER } from '../../src/page/connect';

const ORIGIN = 'https://mcp.example';
const snippetsOf = (origin: string) => connectGuides(origin).flatMap((g) => g.snippets.map((s) => s.text));

describe('connectGuides', () => {
  it('gives the commands as each client documents them, with this server’s URL', () => {
    const shown = snippetsOf(ORIGIN);
    expect(shown).toContain(`claude mcp add --transport http n8n-edge ${ORIGIN}/mcp --header "Authorization: Bearer YOUR_API_KEY"`);
    expect(shown).toContain(
      `npx @modelcontextprotocol/inspector --cli ${ORIGIN}/mcp --transport http --header "Authorization: Bearer YOUR_API_KEY" --method tools/list`,
    );
    expect(shown).toContain('Bearer YOUR_API_KEY');
    expect(shown.map((text) => (text.startsWith('{') ? JSON.parse(text).mcpServers['n8n-edge'].args : null)).filter(Boolean)).toEqual([
      ['mcp-remote', `${ORIGIN}/mcp`, '--header', 'Authorization:${N8N_EDGE_AUTH}'],
      ['mcp-remote', `${ORIGIN}/mcp`],
    ]);
  });

  it('gives Claude Desktop a config file with the key in env for the header, and none for OAuth', () => {
    const desktop = connectGuides(ORIGIN).find((g) => g.id === 'claude-desktop')!;
    const [withKey, withOAuth] = desktop.snippets.map((s) => JSON.parse(s.text).mcpServers['n8n-edge']);
    expect(withKey).toEqual({
      command: 'npx',
      args: ['mcp-remote', `${ORIGIN}/mcp`, '--header', 'Authorization:${N8N_EDGE_AUTH}'],
      env: { N8N_EDGE_AUTH: `Bearer ${KEY_PLACEHOLDER}` },
    });
    expect(withOAuth).toEqual({ command: 'npx', args: ['mcp-remote', `${ORIGIN}/mcp`] });
  });

  it('fills in the origin it is given, wherever the server runs: every URL in a guide is on it', () => {
    const local = 'http://localhost:8787';
    const guides = connectGuides(local);
    const texts = guides.flatMap((g) => [...g.steps, ...g.snippets.flatMap((s) => [s.text, s.caption ?? ''])]);
    const urls = texts.flatMap((text) => text.match(/https?:\/\/[^\s"'“”]+/g) ?? []);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url.startsWith(`${local}/`), url).toBe(true);
    // n8n's older nodes take the legacy SSE URL.
    expect(guides.find((g) => g.id === 'n8n')!.steps.join(' ')).toContain(`${local}/mcp/sse`);
    expect(JSON.stringify(guides)).not.toContain(ORIGIN);
  });

  it('never holds a key: only the placeholder, in every snippet that sends one', () => {
    const shown = snippetsOf(ORIGIN);
    for (const text of shown) expect(text).not.toMatch(/n2f_/);
    const sendingKeys = shown.filter((text) => text.includes('Bearer'));
    expect(sendingKeys.length).toBeGreaterThanOrEqual(4);
    for (const text of sendingKeys) expect(text).toContain(`Bearer ${KEY_PLACEHOLDER}`);
  });

  it('names each guide and snippet uniquely, for the page’s element ids and the copy buttons’ names', () => {
    const guides = connectGuides(ORIGIN);
    expect(new Set(guides.map((g) => g.id)).size).toBe(guides.length);
    for (const g of guides) expect(g.id).toMatch(/^[a-z][a-z0-9-]*$/);
    const labels = guides.flatMap((g) => g.snippets.map((s) => s.label));
    expect(new Set(labels).size).toBe(labels.length);
  });
});
