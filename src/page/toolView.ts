import { z } from 'zod';
import { scopesOf } from '../auth/scopes';
import type { ToolDefinition } from '../tools/tool';

export interface ParameterView {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  default?: string;
}

export interface ToolView {
  name: string;
  title: string;
  description: string;
  /** The scope a credential needs for it; null: any credential. */
  scope: string | null;
  /** The MCP annotations that are set, by name (readOnlyHint: true, …). */
  annotations: [string, boolean][];
  parameters: ParameterView[];
}

interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Tool definitions never change in an isolate: each is converted once. */
const views = new WeakMap<ToolDefinition, ToolView>();

/** A tool as tools/list describes it: its input schema converted the way the SDK does it (draft-7, input side). */
export function toolView(tool: ToolDefinition): ToolView {
  let view = views.get(tool);
  if (!view) views.set(tool, (view = describe(tool)));
  return view;
}

function describe(tool: ToolDefinition): ToolView {
  const schema = z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as JsonSchema;
  const required = new Set(schema.required ?? []);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // Space-separated when a tool needs several (the page's script reads it so).
    scope: scopesOf(tool).join(' ') || null,
    annotations: Object.entries(tool.annotations).filter((e): e is [string, boolean] => typeof e[1] === 'boolean'),
    parameters: Object.entries(schema.properties ?? {}).map(([name, p]) => ({
      name,
      type: typeName(p),
      required: required.has(name),
      ...(p.description ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: JSON.stringify(p.default) } : {}),
    })),
  };
}

/** A short type for people: `"a" | "b"`, `string[]`, `object`. */
function typeName(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeName).join(' | ');
  if (schema.type === 'array') return `${schema.items ? typeName(schema.items) : 'any'}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}
