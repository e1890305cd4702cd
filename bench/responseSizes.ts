/**
 * Sizes of get_node_details answers over the whole catalog (seed + n8n), in estimated tokens
 * (JSON characters / 4): the common nodes in their default (essentials) and full forms, and the
 * largest default answer of any node. Targets: common nodes < 2,000, every default < 25,000.
 *
 *   npm run bench:sizes      Writes bench/results/response-sizes.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { newestDescriptions } from '../src/catalog/build.ts';
import type { NodeSpec } from '../src/catalog/nodeSpec.ts';
import { serializeSpec } from '../src/catalog/serialize.ts';
import { readN8nSpecs } from '../scripts/catalog/n8n/import.ts';
import { readSeedCatalog } from '../scripts/catalog/readSeed.ts';

const COMMON = [
  'n8n-nodes-base.httpRequest',
  'n8n-nodes-base.code',
  'n8n-nodes-base.if',
  'n8n-nodes-base.slack',
  'n8n-nodes-base.gmail',
  'n8n-nodes-base.googleSheets',
  '@n8n/n8n-nodes-langchain.agent',
];
const specs = [...readSeedCatalog(), ...newestDescriptions(readN8nSpecs()).current];
const tokens = (spec: NodeSpec, detail: 'essentials' | 'full') =>
  Math.ceil(JSON.stringify([serializeSpec(spec, { includeExamples: true, includeSchemas: true, detail })]).length / 4);

const common = COMMON.map((subtype) => {
  const spec = specs.find((s) => s.subtype === subtype)!;
  return { subtype, essentials: tokens(spec, 'essentials'), full: tokens(spec, 'full') };
});
const defaults = specs.map((s) => ({ subtype: s.subtype, essentials: tokens(s, 'essentials') })).sort((a, b) => b.essentials - a.essentials);
const fulls = specs.map((s) => tokens(s, 'full')).sort((a, b) => b - a);

console.log('get_node_details, estimated tokens (JSON chars / 4)\n');
console.log('node                                   default   full');
for (const c of common) console.log(`${c.subtype.padEnd(38)} ${String(c.essentials).padStart(7)} ${String(c.full).padStart(6)}`);
console.log(`\nlargest default answer: ${defaults[0]!.subtype} ${defaults[0]!.essentials} tokens (target < 25,000)`);
console.log(`default answers over 2,000 tokens: ${defaults.filter((d) => d.essentials > 2000).length} of ${specs.length}`);
console.log(`full specs over the 20,000-token response budget (answered as essentials + node-spec:// link): ${fulls.filter((t) => t > 20_000).length}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/response-sizes.json', JSON.stringify({ common, largestDefault: defaults.slice(0, 5), specs: specs.length }, null, 2));
