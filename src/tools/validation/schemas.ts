import { z } from 'zod';
import { MAX_FINDINGS } from '../../workflows/findings';
import { isPlainObject } from '../../workflows/values';

/**
 * An object keyed by names the caller chooses (connections by node name, parameters), passed on as it
 * came. Not z.record: zod leaves a "__proto__" key out of what it builds, and n8n takes a node named so
 * like any other, so its connections would be lost. The JSON Schema is z.record's.
 */
export const NamedObject = z.unknown().refine(isPlainObject, 'expected an object').meta({ type: 'object', additionalProperties: {} });
/** How n8n writes connections, for every tool that takes a workflow: an agent that knows no n8n writes them from this. */
export const CONNECTIONS_SHAPE =
  'Connections keyed by source node name: {"Source name": {"main": [[{"node": "Target name", "type": "main", "index": 0}]]}} (one list per output; AI ports by their type, e.g. "ai_languageModel")';

const FindingSchema = z.object({
  node: z.string().nullable().describe("The node's name; null for the workflow as a whole"),
  path: z.string().optional().describe('Where: parameters.channelId, connections.IF.main[2][0], typeVersion…'),
  code: z.string().describe('What kind of problem: missing_required, invalid_option, unknown_node_type, output_index_out_of_range…'),
  message: z.string().describe('What is wrong and what would be right'),
});

/** validate_node's and validate_workflow's structuredContent. */
export const FindingsOutput = z.object({
  valid: z.boolean().describe('No errors (warnings may remain)'),
  errors: z.array(FindingSchema).describe('What stops the workflow from working as written'),
  warnings: z.array(FindingSchema).describe('What n8n accepts but is probably not what was meant'),
  omitted: z
    .object({ errors: z.number().int(), warnings: z.number().int() })
    .optional()
    .describe(`Findings left out: an answer lists the first ${MAX_FINDINGS} errors and the first ${MAX_FINDINGS} warnings (fix those and validate again)`),
  n8n: z.string().optional().describe("Only when an n8n is configured but its release could not be read: that the catalog's was used, and why"),
});

/** A workflow as the validation tools take it: n8n's export, or what create_workflow will be sent. */
export const WorkflowJson = z
  .object({
    nodes: z.array(z.unknown()).describe('The nodes: {name, type, typeVersion, parameters, credentials?, position, …}'),
    connections: NamedObject.default({}).describe(CONNECTIONS_SHAPE),
  })
  .loose()
  .describe('The workflow JSON (as n8n exports it, or as you will send it to create_workflow)');
