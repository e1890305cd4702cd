import { z } from 'zod';
import type { CategoriesMap, TypesMap } from '../../catalog/build';
import { Catalog } from '../../catalog/catalog';
import { NODE_TYPES, NodeTypeSchema, type NodeType } from '../../catalog/nodeSpec';
import { own } from '../../lib/ownKeys';
import { defineTool, ToolError } from '../tool';

/** More matches than this are answered as counts: the whole catalog is ~7,000 tokens an agent rarely needs. */
export const LIST_LIMIT = 60;

export interface TypesFilter {
  type_filter?: NodeType;
  /** Part of the subtype, in any case ("slack", "langchain.agent"). */
  name?: string;
  category?: string;
}

/**
 * The subtypes that match every filter given, as `{NODE_TYPE: [subtypes]}` in catalog order; more than
 * LIST_LIMIT of them as counts per node type and category, with how to narrow. A category the catalog
 * lacks is a ToolError naming those it has.
 */
export function listTypes(types: TypesMap, categories: CategoriesMap, filter: TypesFilter): Record<string, unknown> {
  const { type_filter, name, category } = filter;
  const inCategory = category === undefined ? undefined : own<string[]>(categories, category);
  if (category !== undefined && !inCategory) {
    throw new ToolError(`No category "${category}". Categories: ${Object.keys(categories).join(', ')}`);
  }
  const needle = name?.toLowerCase();
  const matching = NODE_TYPES.filter((t) => type_filter === undefined || t === type_filter).map(
    (t) => [t, (types[t] ?? []).filter((s) => (needle === undefined || s.toLowerCase().includes(needle)) && (!inCategory || inCategory.includes(s)))] as const,
  );
  const total = matching.reduce((n, [, list]) => n + list.length, 0);
  if (total <= LIST_LIMIT) {
    // A type filter always answers its type, even with nothing in it.
    return Object.fromEntries(matching.filter(([t, list]) => list.length > 0 || t === type_filter));
  }
  const listed = new Set(matching.flatMap(([, list]) => list));
  const byCategory = Object.entries(categories)
    .map(([c, list]) => [c, list.filter((s) => listed.has(s)).length] as const)
    .filter(([, n]) => n > 0);
  return {
    matches: total,
    by_type: Object.fromEntries(matching.filter(([, list]) => list.length > 0).map(([t, list]) => [t, list.length])),
    by_category: Object.fromEntries(byCategory),
    note: `More than ${LIST_LIMIT} node types match: narrow with name, category or type_filter to list them, or find nodes by what they do with search_nodes.`,
  };
}

export const getNodeTypes = defineTool({
  name: 'get_node_types',
  title: 'List node types',
  description:
    'List workflow node types and their subtypes, as {NODE_TYPE: [subtypes]}, filtered by node type, part of the ' +
    `name and n8n category; more than ${LIST_LIMIT} matches come as counts per node type and category. ` +
    'To find nodes by what they do, use search_nodes. Use a subtype with get_node_details to learn how to configure it.',
  input: z.object({
    type_filter: NodeTypeSchema.optional().describe('Filter by node type (optional)'),
    name: z.string().min(1).max(200).optional().describe('Part of the subtype, in any case, e.g. "slack" (optional)'),
    category: z.string().min(1).max(200).optional().describe('n8n category, e.g. "Core Nodes", "Communication" (optional; the counts name them)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  async run(filter, { env }) {
    const catalog = new Catalog(env.SPECS);
    const [types, categories] = await Promise.all([catalog.types(), catalog.categories()]);
    return listTypes(types, categories, filter);
  },
});
