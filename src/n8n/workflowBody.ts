import { own } from '../lib/ownKeys';

/**
 * What n8n's `POST /workflows` and `PUT /workflows/{id}` accept, from the n8n public API's OpenAPI
 * (n8n 2.41.3): the request schemas have `additionalProperties: false` at the top, on each node and on
 * `settings`, and refuse read-only fields (`id`, `active`, `tags`, `createdAt`, `versionId`…). An
 * agent sends back what `get_workflow` gave it; this keeps only what n8n takes.
 */
const WORKFLOW_FIELDS = ['name', 'nodes', 'connections', 'settings', 'staticData', 'pinData', 'nodeGroups', 'parentFolderId', 'description'];
/** A node's fields n8n's public API takes (its node schema). */
export const NODE_FIELDS = [
  'id',
  'name',
  'webhookId',
  'disabled',
  'notesInFlow',
  'notes',
  'type',
  'typeVersion',
  'executeOnce',
  'alwaysOutputData',
  'retryOnFail',
  'maxTries',
  'waitBetweenTries',
  'continueOnFail',
  'onError',
  'position',
  'parameters',
  'credentials',
  'customTelemetryTags',
];
const SETTINGS_FIELDS = [
  'saveExecutionProgress',
  'saveManualExecutions',
  'saveDataErrorExecution',
  'saveDataSuccessExecution',
  'executionTimeout',
  'errorWorkflow',
  'timezone',
  'executionOrder',
  'binaryMode',
  'callerPolicy',
  'callerIds',
  'timeSavedMode',
  'timeSavedPerExecution',
  'redactionPolicy',
  'availableInMCP',
  'customTelemetryTags',
  'credentialResolverId',
];

type Json = Record<string, unknown>;

/** Keeps the listed keys whose values are set (own properties only); n8n's schemas take no nulls for these fields. */
export function pick(source: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.map((k) => [k, own(source, k)]).filter(([, value]) => value !== undefined && value !== null));
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body for create/update: the writable fields, each node and the settings cut to their schemas. */
export function workflowBody(workflow: Json): Json {
  const body = pick(workflow, WORKFLOW_FIELDS);
  if (Array.isArray(body.nodes)) body.nodes = body.nodes.map((node) => (isObject(node) ? pick(node, NODE_FIELDS) : node));
  // n8n requires settings; a workflow written without them gets the defaults.
  body.settings = isObject(workflow.settings) ? pick(workflow.settings, SETTINGS_FIELDS) : {};
  for (const key of ['pinData', 'staticData'] as const) if (!isObject(body[key])) delete body[key];
  if (!Array.isArray(body.nodeGroups)) delete body.nodeGroups;
  return body;
}
