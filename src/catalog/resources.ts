import { ResourceNotFoundError, ResourceTemplate, type McpServer, type RegisteredResourceTemplate } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import { own } from '../lib/ownKeys';
import { Catalog, listedUnder } from './catalog';
import { drivesN8n } from '../n8n/client';
import { EXPRESSION_GUIDE_URI, expressionGuide, timeZoneSection } from './expressionGuide';
import { NODE_TYPES } from './nodeSpec';
import { serializeSpec } from './serialize';

/** MCP caps a completion answer at 100 values. */
const MAX_COMPLETIONS = 100;

/**
 * The node-spec resources: the knowledge tools' catalog, so the knowledge tools' scope (src/server's
 * guardResources checks the shape where it takes them: the catalog imports nothing of the server).
 */
export const NODE_SPEC_RESOURCES = {
  uriTemplate: 'node-spec://{node_type}/{+subtype}',
  named: 'node-spec://',
  scope: 'nodes:read',
} as const;

const startsWith = (value: string) => (candidate: string) => candidate.toLowerCase().startsWith(value.toLowerCase());

/**
 * The catalog as MCP resources: `node-spec://{node_type}/{subtype}` (subtype may contain `/`, as in
 * `@n8n/n8n-nodes-langchain.agent`), readable as full JSON specs, with completions for both parts. Not
 * listed: ~850 entries (188 kB) in resources/list buried the guides for agents that list resources
 * (search_nodes and get_node_types find nodes; the template and its completions name them).
 * Node types and subtypes are the caller's words: looked up as own keys only. Answers the node-spec
 * template as registered, for its guard.
 */
export function installCatalogResources(server: McpServer, env: Env): RegisteredResourceTemplate {
  const catalog = new Catalog(env.SPECS);
  const nodeSpecs = server.registerResource(
    'node-spec',
    new ResourceTemplate(NODE_SPEC_RESOURCES.uriTemplate, {
      list: undefined,
      complete: {
        node_type: (value) => NODE_TYPES.filter(startsWith(value)),
        subtype: async (value, context) => {
          const types = await catalog.types();
          const nodeType = context?.arguments?.node_type;
          const pool = nodeType === undefined ? Object.values(types).flat() : (own<string[]>(types, nodeType) ?? []);
          return pool.filter(startsWith(value)).slice(0, MAX_COMPLETIONS);
        },
      },
    }),
    { description: 'A node specification from the catalog, in full', mimeType: 'application/json' },
    async (uri, { node_type, subtype }) => {
      // Named under the wrong category, a spec is read all the same: its content names the right one.
      const listed = listedUnder(await catalog.types(), String(subtype));
      const spec = listed === undefined ? null : await catalog.spec(listed, String(subtype));
      if (!spec) throw new ResourceNotFoundError(uri.href, `Node specification not found: ${node_type}/${subtype}`);
      const text = JSON.stringify(serializeSpec(spec, { includeExamples: true, includeSchemas: true, detail: 'full' }));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
  // Public knowledge, no catalog read: any caller may read it (get_guide serves it to clients that only call tools).
  server.registerResource(
    'expressions',
    EXPRESSION_GUIDE_URI,
    {
      title: 'Writing n8n expressions',
      description:
        "How n8n expressions are written: ={{ … }}, $json, $('Node'), $input, $itemIndex, $now and Luxon dates, the time zone a workflow runs in, $jmespath, what common nodes output",
      mimeType: 'text/markdown',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: expressionGuide(timeZoneSection({ instance: drivesN8n(env) })) }],
    }),
  );
  return nodeSpecs;
}
