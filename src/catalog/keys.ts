/**
 * KV layout. Everything of a catalog lives under its version; `catalog:current` names the version
 * readers use and is written last, so a reader sees the old catalog or the new one, never half.
 */
export const CURRENT_KEY = 'catalog:current';
export const manifestKey = (version: string) => `catalog:${version}:manifest`;
export const typesKey = (version: string) => `catalog:${version}:types`;
/** `{category: [subtypes]}`: what get_node_types filters by category with. */
export const categoriesKey = (version: string) => `catalog:${version}:categories`;
export const indexKey = (version: string) => `catalog:${version}:index`;
export const specKey = (version: string, nodeType: string, subtype: string) => `catalog:${version}:spec:${nodeType}:${subtype}`;
/**
 * An older description of a node (n8n nodes have one per group of typeVersions), under each typeVersion
 * it covers, so one read finds the description of any version.
 */
export const olderSpecKey = (version: string, nodeType: string, subtype: string, typeVersion: number) =>
  `${specKey(version, nodeType, subtype)}@${typeVersion}`;
/** The template search index (src/templates/searchIndex.ts): every template's card and the words to find it by. */
export const templateIndexKey = (version: string) => `catalog:${version}:templates`;
/** One template whole (src/templates/template.ts), by its id. */
export const templateKey = (version: string, id: string) => `catalog:${version}:template:${id}`;
/** How the workflow view draws each node type (src/catalog/nodeLooks.ts): display names, colours, icons. */
export const looksKey = (version: string) => `catalog:${version}:looks`;
