import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolView } from '../../src/page/toolView';
import { toolsFor } from '../../src/server/registry';
import { searchNodes } from '../../src/tools/nodes/searchNodes';
import { serverInfo } from '../../src/tools/serverInfo';
import { defineTool } from '../../src/tools/tool';
import { bearer, createKey } from '../support/keys';
import { callWithEnv } from '../support/mcp';

const N8N = { N8N_API_URL: 'https://n8n.internal.example', N8N_API_KEY: 'n8n-secret-api-key' };

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  inputSchema: { properties?: Record<string, { description?: string; default?: unknown }>; required?: string[] };
}

/** tools/list of the production Worker with an n8n configured (2026-07-28: one request, no session). */
async function listedWithN8n(): Promise<ListedTool[]> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const response = await callWithEnv('/mcp', N8N, {
    method: 'POST',
    headers: {
      ...bearer((await createKey(['*'])).key),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
  });
  return ((await response.json()) as { result: { tools: ListedTool[] } }).result.tools;
}

/** A tool whose input has one parameter of each shape the page names. */
const shapes = defineTool({
  name: 'shapes',
  title: 'Shapes',
  description: 'Every shape of parameter.',
  input: z.object({
    mode: z.enum(['fast', 'exact']).describe('How to run'),
    limit: z.number().int().default(10),
    either: z.union([z.string(), z.number()]),
    tags: z.array(z.string()).optional(),
    anything: z.any(),
    nested: z.object({ a: z.string() }).optional(),
    maybe: z.string().nullable(),
  }),
  annotations: { title: 'Shapes, for people', readOnlyHint: true, destructiveHint: false },
  execution: 'direct',
  scope: 'workflows:write',
  alsoNeeds: ['executions:read'],
  run: () => null,
});

describe('toolView', () => {
  it('describes a tool’s parameters with a type, whether required, its description and default', () => {
    const view = toolView(searchNodes);
    expect(view).toMatchObject({ name: 'search_nodes', title: 'Search nodes', description: searchNodes.description, scope: 'nodes:read' });
    expect(view.parameters).toEqual([
      { name: 'query', type: 'string', required: true, description: "Search query (e.g. 'HTTP request', 'send email', 'process data')" },
      { name: 'max_results', type: 'integer', required: false, description: 'Maximum number of results to return (1-50)', default: '10' },
      { name: 'include_details', type: 'boolean', required: false, description: 'Include node specifications (essentials) in results', default: 'false' },
    ]);
    expect(view.annotations).toEqual([
      ['readOnlyHint', true],
      ['idempotentHint', true],
      ['openWorldHint', false],
    ]);
  });

  it('names each shape of type for people: choices, unions, lists, objects, anything', () => {
    const types = Object.fromEntries(toolView(shapes).parameters.map((p) => [p.name, p.type]));
    expect(types).toEqual({
      mode: '"fast" | "exact"',
      limit: 'integer',
      either: 'string | number',
      tags: 'string[]',
      anything: 'any',
      nested: 'object',
      maybe: 'string | null',
    });
    // A default makes a parameter optional for the caller (the input side of the schema).
    expect(
      toolView(shapes)
        .parameters.filter((p) => p.required)
        .map((p) => p.name),
    ).toEqual(['mode', 'either', 'anything', 'maybe']);
  });

  it('names every scope a tool needs, space-separated, and none for a tool any credential may call', () => {
    expect(toolView(shapes).scope).toBe('workflows:write executions:read');
    expect(toolView(serverInfo).scope).toBeNull();
  });

  it('keeps the yes/no annotations only', () => {
    expect(toolView(shapes).annotations).toEqual([
      ['readOnlyHint', true],
      ['destructiveHint', false],
    ]);
  });

  it('converts a tool once and hands out the same view after', () => {
    expect(toolView(shapes)).toBe(toolView(shapes));
  });

  it('describes every tool as tools/list does: title, description, annotations, and each parameter', async () => {
    // The deployment's tools with an n8n, and those the test entry adds through the registry.
    const defined = toolsFor({ ...env, ...N8N });
    const listed = new Map((await listedWithN8n()).map((t) => [t.name, t]));
    expect(defined.length).toBeGreaterThan(40);
    for (const definition of defined) {
      const view = toolView(definition);
      const tool = listed.get(definition.name)!;
      const properties = tool.inputSchema.properties ?? {};
      expect([view.title, view.description], tool.name).toEqual([tool.title, tool.description]);
      expect(view.annotations, tool.name).toEqual(Object.entries(tool.annotations ?? {}).filter(([, value]) => typeof value === 'boolean'));
      expect(
        view.parameters.map((p) => [p.name, p.required, p.description, p.default]),
        tool.name,
      ).toEqual(
        Object.entries(properties).map(([name, p]) => [
          name,
          (tool.inputSchema.required ?? []).includes(name),
          p.description,
          p.default === undefined ? undefined : JSON.stringify(p.default),
        ]),
      );
    }
  });
});
