import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * n8n's public API contract, from its own OpenAPI document (test/fakes/n8n/openapi.json, written by
 * `npm run n8n:openapi` from the pinned n8n package): which operation a request is, whether the request
 * is one n8n would accept, and whether an answer is one n8n could give. Messages follow the
 * express-openapi-validator wording n8n answers with ("request/body must NOT have additional properties").
 */
const spec = JSON.parse(readFileSync(new URL('./openapi.json', import.meta.url), 'utf8')) as {
  info: { 'x-n8n-version': string };
  paths: Record<string, Record<string, Operation>>;
};
export const N8N_VERSION = spec.info['x-n8n-version'];

/** OpenAPI 3.0's `nullable` without a `type` (n8n's "any value" maps) means nothing to JSON Schema: dropped. */
function toJsonSchema(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable !== undefined && schema.type === undefined) delete schema.nullable;
  for (const value of Object.values(schema)) toJsonSchema(value);
}
toJsonSchema(spec.paths);

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }>;
}

export interface Match {
  /** `GET /workflows/{workflowId}`: the spec's name for the operation. */
  key: string;
  operation: Operation;
  params: Record<string, string>;
}

// OpenAPI 3.0 schemas: `nullable`, `example`, `readOnly`… are keywords Ajv must accept, not enforce as JSON Schema.
const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false });
addFormats.default(ajv);
const compiled = new WeakMap<Schema, ValidateFunction>();
const validatorFor = (schema: Schema) => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
};

const routes = Object.entries(spec.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
    operation,
  })),
);

/** The operation for a method and a path below /api/v1; undefined when n8n has none (404, or 405 by method). */
export function match(method: string, path: string): Match | 'method-not-allowed' | undefined {
  const onPath = routes.filter((r) => r.pattern.test(path));
  const route = onPath.find((r) => r.method === method);
  if (!route) return onPath.length ? 'method-not-allowed' : undefined;
  const params = Object.fromEntries(Object.entries(path.match(route.pattern)!.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
  return { key: `${route.method} ${route.template}`, operation: route.operation, params };
}

/** Query strings are strings: numbers and booleans are read as the parameter's schema types them. */
function coerce(value: string, schema: Schema | undefined): unknown {
  if (schema?.type === 'number' || schema?.type === 'integer') return value.trim() === '' ? value : Number(value);
  if (schema?.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function ajvMessage(where: string, validate: ValidateFunction): string {
  const [error] = validate.errors ?? [];
  return `${where}${error?.instancePath ?? ''} ${error?.message ?? 'is invalid'}`;
}

/** Read-only properties present in a request body, as express-openapi-validator reports them. */
function readOnlyViolation(schema: Schema | undefined, value: unknown, where: string): string | undefined {
  if (!schema || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = readOnlyViolation(schema.items, item, `${where}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties?.[key];
    if (property?.readOnly) return `${where}/${key} is read-only`;
    const found = readOnlyViolation(property, item, `${where}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/** What is wrong with a request, in n8n's words; undefined when n8n would take it. */
export function requestError(match: Match, query: URLSearchParams, body: unknown, hasBody: boolean): string | undefined {
  const parameters = match.operation.parameters ?? [];
  for (const name of new Set(query.keys())) {
    if (!parameters.some((p) => p.in === 'query' && p.name === name)) return `Unknown query parameter '${name}'`;
  }
  for (const parameter of parameters) {
    if (parameter.in === 'header') continue;
    const raw = parameter.in === 'path' ? match.params[parameter.name] : (query.get(parameter.name) ?? undefined);
    if (raw === undefined) {
      if (parameter.required) return `request/${parameter.in}/${parameter.name} must have required property '${parameter.name}'`;
      continue;
    }
    const validate = validatorFor(parameter.schema ?? {});
    if (!validate(coerce(raw, parameter.schema))) return ajvMessage(`request/${parameter.in}/${parameter.name}`, validate);
  }
  const requestBody = match.operation.requestBody;
  if (!requestBody) return undefined;
  if (!hasBody) return requestBody.required ? 'request/body must have required property' : undefined;
  const schema = requestBody.content['application/json'].schema;
  const readOnly = readOnlyViolation(schema, body, 'request/body');
  if (readOnly) return readOnly;
  const validate = validatorFor(schema);
  return validate(body) ? undefined : ajvMessage('request/body', validate);
}

/** What is wrong with an answer the fake gives, against the spec's schema for its status. */
export function responseError(match: Match, status: number, body: unknown): string | undefined {
  const response = match.operation.responses[String(status)];
  if (!response) return `${match.key}: n8n never answers ${status}`;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return body === undefined || status >= 400 ? undefined : `${match.key} ${status}: n8n sends no body`;
  const validate = validatorFor(schema);
  return validate(body) ? undefined : `${match.key} ${status}: ${ajvMessage('response', validate)}`;
}
