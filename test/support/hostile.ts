/**
 * Valid arguments for any tool (from its input schema) whose every string can be swapped for a hostile
 * one, for the tests and fuzzers that try every tool; the names themselves and the prototype checks
 * are in specialNames.ts.
 */
import { n8nConnection } from '../../src/n8n/client';
import type { N8nToolContext } from '../../src/tools/n8n/n8nTool';
import { env } from 'cloudflare:workers';
import { inject } from 'vitest';
import { z } from 'zod';
import type { Env } from '../../src/env';
import { invokeTool } from '../../src/server/runTool';
import { toolsFor } from '../../src/server/registry';
import { TEST_TOOLS } from '../entry/worker';
import type { ToolContext, ToolDefinition } from '../../src/tools/tool';
import webhookWorkflow from '../fixtures/workflows/30-webhook-respond-to-webhook.json';

type Schema = {
  pattern?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  anyOf?: Schema[];
  additionalProperties?: Schema | boolean;
  default?: unknown;
};

/** A workflow an agent would write (Webhook → IF → Code → Respond to Webhook), for any argument that takes one. */
export const SAMPLE_WORKFLOW = { name: webhookWorkflow.name, nodes: webhookWorkflow.nodes, connections: webhookWorkflow.connections, settings: {} };

/** edit_workflow's operations, one of each kind, on SAMPLE_WORKFLOW's nodes ("Respond Created" has no connections of its own). */
export const SAMPLE_OPERATIONS = [
  { type: 'addNode', node: { ...SAMPLE_WORKFLOW.nodes[0]!, id: undefined, webhookId: undefined, name: 'Added' } },
  { type: 'addConnection', source: 'Respond Created', target: 'Added', connectionType: 'main' },
  { type: 'rewireConnection', source: 'Respond Created', from: 'Added', to: 'Valid Request?' },
  { type: 'removeConnection', source: 'Respond Created', target: 'Valid Request?' },
  { type: 'updateNode', name: 'Respond Created', changes: { parameters: { jsCode: 'return $input.all();', options: { mode: 'x' } }, notes: 'changed' } },
  { type: 'setParameter', name: 'Respond Created', path: '/options/responseCode', value: 202 },
  { type: 'renameNode', name: 'Added', newName: 'Added twice' },
  { type: 'moveNode', name: 'Added twice', position: [10, 20] },
  { type: 'disableNode', name: 'Added twice' },
  { type: 'enableNode', name: 'Added twice' },
  { type: 'removeNode', name: 'Added twice' },
  { type: 'updateSettings', settings: { timezone: 'UTC', callerPolicy: 'workflowsFromSameOwner' } },
  { type: 'updateName', name: 'Renamed workflow' },
  { type: 'addTag', tag: 'hostile' },
  { type: 'removeTag', tag: 'hostile' },
  { type: 'deactivate' },
];

/** Valid arguments for a tool: every property set, strings as `text` unless the name says what goes there. */
export function sampleArguments(tool: ToolDefinition, ids: Record<string, string> = {}): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const args = sample(schema, '', ids) as Record<string, unknown>;
  // A string the schema checks by code (a refine: "a UUID or an e-mail") gets the first shape it takes.
  for (const issue of tool.input.safeParse(args).error?.issues ?? []) {
    const path = issue.path as (string | number)[];
    const holder = path.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as Record<string | number, unknown>, args);
    const key = path.at(-1)!;
    if (typeof holder[key] !== 'string') continue;
    holder[key] =
      STRINGS.find((candidate) => {
        holder[key] = candidate;
        return !tool.input.safeParse(args).error?.issues.some((i) => i.path.join('.') === path.join('.'));
      }) ?? holder[key];
  }
  return args;
}

/** Strings of the shapes ids take, for a schema that asks for one by pattern. */
const STRINGS = ['1', 'AbC123dEf456GhI7', '5f1c2e3a-9b8d-4c7e-a6f5-0123456789ab', 'ada@example.com'];

/** A paging cursor or a version id read before: made up, either one makes the call a different one. */
const LEFT_OUT = new Set(['cursor', 'expectedVersionId']);

function sample(schema: Schema, name: string, ids: Record<string, string>): unknown {
  if (name === 'workflow') return structuredClone(SAMPLE_WORKFLOW);
  if (name === 'node') return { ...structuredClone(SAMPLE_WORKFLOW.nodes[0]!), name: 'Added' };
  if (name === 'parameters') return structuredClone(SAMPLE_WORKFLOW.nodes[0]!.parameters);
  if (name === 'operations') return structuredClone(SAMPLE_OPERATIONS);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!, name, ids);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {})
        .filter(([key]) => !LEFT_OUT.has(key))
        .map(([key, value]) => [key, sample(value, key, ids)]);
      if (entries.length === 0) entries.push(['key', 'value']);
      return Object.fromEntries(entries);
    }
    case 'array':
      return schema.items ? [sample(schema.items, name, ids)] : [];
    case 'string': {
      const likely = [ids[name], name === 'email' ? 'ada@example.com' : undefined, name === 'type' ? 'n8n-nodes-base.webhook' : undefined, 'text'];
      const candidates = [...likely, ...STRINGS].filter((c): c is string => c !== undefined);
      return schema.pattern ? (candidates.find((c) => new RegExp(schema.pattern!).test(c)) ?? 'text') : candidates[0];
    }
    case 'number':
    case 'integer':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    default:
      return { key: 'value' };
  }
}

/** Where a name can stand in a JSON value: each string, and each object key, by path. */
export type Position = { path: (string | number)[]; kind: 'value' | 'key' };

export function stringPositions(value: unknown, path: (string | number)[] = []): Position[] {
  if (typeof value === 'string') return [{ path, kind: 'value' }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPositions(v, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [{ path: [...path, k], kind: 'key' as const }, ...stringPositions(v, [...path, k])]);
  }
  return [];
}

/**
 * `value` with the string or key at `position` replaced by `name`, as JSON text: a key named
 * "__proto__" stays an own key only when JSON.parse makes it (a literal would set the prototype).
 */
export function withNameAt(value: unknown, position: Position, name: string): string {
  const marker = `\u0000hostile-name\u0000`;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let holder = copy;
  for (const step of position.path.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
  const last = position.path.at(-1)!;
  if (position.kind === 'value') holder[last] = marker;
  else {
    const entries = Object.entries(holder).map(([k, v]) => [k === last ? marker : k, v] as const);
    for (const k of Object.keys(holder)) delete holder[k];
    for (const [k, v] of entries) holder[k] = v;
  }
  return JSON.stringify(copy).replaceAll(JSON.stringify(marker), JSON.stringify(name));
}

/**
 * The workflow with one node's name replaced by `name` everywhere it is used: its connections, and
 * expressions that name it. `sourcesAs` writes the connections it starts differently, as agents do and
 * autofix resolves: under the name in upper case, or under the node's id.
 */
export function renamedNode(workflow: typeof SAMPLE_WORKFLOW, from: string, name: string, sourcesAs: 'name' | 'upper case' | 'id' = 'name'): string {
  const node = workflow.nodes.find((n) => n.name === from)!;
  const renamed = JSON.parse(
    JSON.stringify(workflow).replaceAll(JSON.stringify(from), JSON.stringify(name)).replaceAll(`$('${from}')`, `$('${name}')`),
  ) as typeof workflow;
  const key = sourcesAs === 'upper case' ? name.toUpperCase() : sourcesAs === 'id' ? node.id : name;
  const connections = Object.entries(renamed.connections).map(([source, targets]) => [source === name ? key : source, targets]);
  // Built as text: an object literal would take a "__proto__" key as its prototype.
  return JSON.stringify({ ...renamed, connections: '\u0000' }).replace(
    '"\\u0000"',
    `{${connections.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`,
  );
}

/**
 * Where in a value an object without a prototype sits (a Dict left out as is), or undefined: workerd
 * cannot send one through Durable Object storage or RPC, which a queued call's result crosses.
 */
export function nullPrototypeAt(value: unknown, path = 'result'): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Object.getPrototypeOf(value) === null) return path;
  for (const [key, child] of Object.entries(value)) {
    const found = nullPrototypeAt(child, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** The deployment's variables with an n8n configured (the contract fake, test/fakes/n8n): every production tool is served. */
export const withN8n = (): Env => ({ ...env, N8N_API_URL: inject('n8nUrl'), N8N_API_KEY: inject('n8nKey') });

/** The tools a deployment serves with these variables, without the test entry's (test/entry/worker.ts). */
export const productionTools = (toolEnv: Env) => toolsFor(toolEnv).filter((tool) => !TEST_TOOLS.includes(tool));

/**
 * The context a direct call gets, for a caller with every scope. No timer per call (an isolate may
 * hold 10,000): the tests bound each call themselves.
 */
export const directContext = (toolEnv: Env): ToolContext => ({
  env: toolEnv,
  callId: crypto.randomUUID(),
  caller: { id: 'key_hostile', subject: 'key_hostile', scopes: ['*'] },
  signal: new AbortController().signal,
  deadline: Date.now() + 30_000,
  progress: async () => {},
  log: async () => {},
  beginSideEffect: async () => {},
});

/** An n8n tool's context on the deployment's own n8n (N8N_API_URL), for what takes one directly (turns, runs). */
export const n8nToolContext = (toolEnv: Env): N8nToolContext => ({ ...directContext(toolEnv), connection: n8nConnection(toolEnv)! });

/**
 * SAMPLE_WORKFLOW saved in the fake n8n, with a node named "__proto__" that starts no connection, so
 * the tools that take an id get past "not found"; its id.
 */
export async function savedSampleWorkflow(toolEnv: Env): Promise<string> {
  const create = toolsFor(toolEnv).find((t) => t.name === 'create_workflow')!;
  const created = await invokeTool(
    create,
    create.input.parse({ workflow: JSON.parse(renamedNode(SAMPLE_WORKFLOW, 'Respond Created', '__proto__')), force: true }),
    directContext(toolEnv),
  );
  return JSON.parse((created.content[0] as { text: string }).text).id;
}
