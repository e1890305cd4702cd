import { z } from 'zod';
import { EXPRESSION_GUIDE_POINTER } from '../../catalog/expressionGuide';
import { nodeOverLimit } from '../../workflows/limits';
import { validateNode as validate } from '../../workflows/validateNode';
import { defineTool } from '../tool';
import { defaultConnectionFor } from '../../workspaces/connectionFor';
import { catalogViewFor, unknownReleaseNote } from './catalogView';
import { FindingsOutput, NamedObject } from './schemas';
import { withinLimits } from './withinLimits';

export const validateNode = defineTool({
  name: 'validate_node',
  title: 'Validate a node',
  description:
    'Check one n8n node against the description of its own typeVersion: the type exists (close matches if not), ' +
    'the typeVersion exists, every required parameter that applies is set, values have the right type and are ' +
    'among the allowed choices, collections have the right shape, expressions are well formed, and the ' +
    'credentials it needs. Answers {valid, errors, warnings}, each finding naming the parameter and what is ' +
    'right. Use it while writing a node (after get_node_details for that version); validate_workflow checks ' +
    `the whole workflow, connections included. How to write expressions: ${EXPRESSION_GUIDE_POINTER}.`,
  input: z.object({
    type: z.string().min(1).describe('The node type, e.g. n8n-nodes-base.slack'),
    typeVersion: z.number().describe('The node version, e.g. 2.3 (get_node_details lists them)'),
    parameters: NamedObject.default({}).describe("The node's parameters, as in workflow JSON"),
    credentials: NamedObject.optional().describe('e.g. {"slackApi": {"id": "…", "name": "…"}}'),
    name: z.string().optional().describe('The node name used in findings'),
  }),
  output: FindingsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  async run(node, { env, caller }) {
    withinLimits(nodeOverLimit(node));
    const named = { ...node, name: node.name ?? node.type.slice(node.type.lastIndexOf('.') + 1) };
    const connection = await defaultConnectionFor(env, caller);
    return { ...validate(named, await catalogViewFor(env, connection, [named])), ...(await unknownReleaseNote(connection)) };
  },
});
