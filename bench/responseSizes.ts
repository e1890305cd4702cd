/**
 * Sizes of the knowledge tools' answers over the whole catalog (seed + n8n, with the parameter usage
 * the build applies), in estimated tokens (JSON characters / 4): get_node_details by default
 * (essentials) for every node, median and largest, the common nodes and the nodes of webhook
 * workflows in both forms, and get_node_types' default answer. Targets: common nodes < 2,000, every
 * default < 25,000.
 *
 *   npm run bench:sizes      Writes bench/results/response-sizes.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildCatalog, categoriesOf, highest, newestDescriptions } from '../src/catalog/build.ts';
import type { NodeSpec } from '../src/catalog/nodeSpec.ts';
import { behaviourAnswer } from '../src/catalog/observed.ts';
import { serializeSpec } from '../src/catalog/serialize.ts';
import { listTypes } from '../src/tools/nodes/getNodeTypes.ts';
import { readN8nSpecs } from '../scripts/catalog/n8n/import.ts';
import { applyObserved } from '../scripts/catalog/observe/apply.ts';
import { readObserved } from '../scripts/catalog/observe/paths.ts';
import { readSeedCatalog } from '../scripts/catalog/readSeed.ts';
import { applyUsage, readParameterUsage } from '../scripts/catalog/usage/applyUsage.ts';

const COMMON = [
  'n8n-nodes-base.httpRequest',
  'n8n-nodes-base.code',
  'n8n-nodes-base.slack',
  'n8n-nodes-base.gmail',
  'n8n-nodes-base.googleSheets',
  '@n8n/n8n-nodes-langchain.agent',
  // What the webhook workflows of the agent trial (issue 30) are built of.
  ...['webhook', 'respondToWebhook', 'set', 'html', 'if', 'filter', 'switch', 'summarize', 'executeWorkflow'].map((n) => `n8n-nodes-base.${n}`),
  // What issue 40's trial tasks call for: lists compared and joined, hashing, sorting, XML, dates.
  ...['merge', 'compareDatasets', 'crypto', 'sort', 'splitOut', 'xml', 'dateTime'].map((n) => `n8n-nodes-base.${n}`),
];
const n8n = applyUsage(applyObserved(readN8nSpecs(), readObserved()), readParameterUsage()).specs;
const specs = [...readSeedCatalog(), ...newestDescriptions(n8n).current];
const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);
/** What get_node_details adds for an observed node: the behaviour of its defaults. */
const behaviourOf = (spec: NodeSpec) => behaviourAnswer(spec.observed, highest(spec), {});
// As get_node_details answers it: the description, and the behaviour where the node was observed.
const tokens = (spec: NodeSpec, detail: 'essentials' | 'full') => {
  const behaviour = behaviourOf(spec);
  return tokensOf([{ ...serializeSpec(spec, { includeExamples: true, includeSchemas: true, detail }), ...(behaviour ? { behaviour } : {}) }]);
};

const common = COMMON.map((subtype) => {
  const spec = specs.find((s) => s.subtype === subtype)!;
  const behaviour = behaviourOf(spec);
  return { subtype, essentials: tokens(spec, 'essentials'), full: tokens(spec, 'full'), behaviour: behaviour ? tokensOf(behaviour) : 0 };
});
const defaults = specs.map((s) => ({ subtype: s.subtype, essentials: tokens(s, 'essentials') })).sort((a, b) => b.essentials - a.essentials);
const median = defaults[Math.floor(defaults.length / 2)]!.essentials;
const fulls = specs.map((s) => tokens(s, 'full')).sort((a, b) => b - a);
const { types } = await buildCatalog(n8n, { sources: ['n8n'] });
const nodeTypes = tokensOf(listTypes(types, categoriesOf(newestDescriptions(n8n).current), {}));

console.log('get_node_details, estimated tokens (JSON chars / 4)\n');
console.log('node                                   default   full  (of which behaviour)');
for (const c of common)
  console.log(`${c.subtype.padEnd(38)} ${String(c.essentials).padStart(7)} ${String(c.full).padStart(6)} ${String(c.behaviour).padStart(8)}`);
console.log(`\ndefault answers: median ${median} tokens, largest ${defaults[0]!.subtype} ${defaults[0]!.essentials} tokens (target < 25,000)`);
console.log(`default answers over 2,000 tokens: ${defaults.filter((d) => d.essentials > 2000).length} of ${specs.length}`);
console.log(`full specs over the 20,000-token response budget (answered as essentials + how to ask per operation): ${fulls.filter((t) => t > 20_000).length}`);
console.log(`get_node_types, default answer (n8n catalog): ${nodeTypes} tokens`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/response-sizes.json',
  JSON.stringify({ common, medianDefault: median, largestDefault: defaults.slice(0, 5), specs: specs.length, getNodeTypesDefault: nodeTypes }, null, 2),
);
