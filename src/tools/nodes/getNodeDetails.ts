import { z } from 'zod';
import { Catalog } from '../../catalog/catalog';
import { EXPRESSION_GUIDE_URI } from '../../catalog/expressionGuide';
import { withinBudget } from '../../catalog/budget';
import { serializeSpec } from '../../catalog/serialize';
import { defineTool } from '../tool';

/** One request can ask for this many nodes; more would blow the response budget. */
const MAX_NODES = 20;

export const getNodeDetails = defineTool({
  name: 'get_node_details',
  title: 'Get node specifications',
  description:
    'Get detailed specifications for one or more workflow nodes: parameters (types, defaults, choices, ' +
    'conditions), input/output ports with data formats, the credential types it takes, and an example node ' +
    'to paste into workflow JSON. n8n nodes have several typeVersions, each with its own parameters: ' +
    'type_versions says which this description covers and node_versions lists all; pass version to get the ' +
    'one your workflow uses (default: the newest). Then write the node and check it with validate_node or ' +
    `validate_workflow. Expressions ("={{ $json.body.email }}", $('Node'), dates): the resource ${EXPRESSION_GUIDE_URI}. ` +
    'Answers one entry per requested node, in order; an unknown node gets an entry with an error instead.',
  input: z.object({
    nodes: z
      .array(
        z.object({
          node_type: z.string().describe('e.g. ACTION_NODE'),
          subtype: z.string().describe('e.g. HTTP_REQUEST or n8n-nodes-base.gmail'),
          version: z.number().optional().describe("n8n nodes: the typeVersion to describe (e.g. 2.1); default: the newest"),
        }),
      )
      .min(1)
      .max(MAX_NODES)
      .describe('List of nodes to get details for'),
    include_examples: z.boolean().default(true).describe('Include usage examples in response'),
    include_schemas: z.boolean().default(true).describe('Include input/output schemas'),
    detail: z
      .enum(['essentials', 'full'])
      .default('essentials')
      .describe('essentials: every parameter with its type, default and choices, compactly; full: nested option trees and full descriptions'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  async run({ nodes, include_examples, include_schemas, detail }, { env }) {
    const catalog = new Catalog(env.SPECS);
    const options = { includeExamples: include_examples, includeSchemas: include_schemas };
    return withinBudget(
      nodes.length,
      async (i, remaining) => {
        const { node_type, subtype, version } = nodes[i]!;
        const spec = await catalog.spec(node_type, subtype, version);
        if (!spec) {
          const newest = version === undefined ? null : await catalog.spec(node_type, subtype);
          if (!newest) return { node_type, subtype, error: 'Node specification not found' };
          return { node_type, subtype, version, error: `No typeVersion ${version}: ${newest.display_name} has ${(newest.node_versions ?? [newest.version]).join(', ')}` };
        }
        const answer = serializeSpec(spec, { ...options, detail });
        if (detail === 'essentials' || JSON.stringify(answer).length <= remaining) return answer;
        // A full spec too big for one response: the essentials, and where the rest can be read (the
        // resource holds the newest description; an older one is asked for again on its own).
        const essentials = serializeSpec(spec, { ...options, detail: 'essentials' });
        const newest = !spec.type_versions || spec.version === spec.node_versions?.map(String).at(-1);
        return { ...essentials, ...(newest ? { full_specification: `node-spec://${node_type}/${subtype}` } : {}) };
      },
      (i) => ({ ...nodes[i]!, error: 'Left out to keep this response under ~20,000 tokens: ask for this node in another call' }),
    );
  },
});
