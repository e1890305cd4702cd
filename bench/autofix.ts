/**
 * autofix_workflow on the evaluation corpus (.eval/, see bench/validation.ts): per mutant kind, the share
 * of mutants whose fixed workflow validates without an error the original lacks, and how many real
 * workflows autofix would change at all (it should change none: they run as they are).
 *
 *   npx tsx bench/autofix.ts [--split dev|heldout|all]      Writes bench/results/autofix.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { autofix } from '../src/workflows/autofix.ts';
import type { Finding } from '../src/workflows/findings.ts';
import { validateWorkflow } from '../src/workflows/validateWorkflow.ts';
import { loadNodeCatalog } from '../scripts/lib/nodeCatalog.ts';

const { values: flags } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, corpus: { type: 'string', default: '.eval/workflows' } } });
const read = (file: string) => JSON.parse(readFileSync(`${flags.corpus}/${file}`, 'utf8'));
const inSplit = (entry: { split: string }) => flags.split === 'all' || entry.split === flags.split;
const catalog = loadNodeCatalog();
const key = (f: Finding) => `${f.code}|${f.node}|${f.path ?? ''}`;

const workflows = (read('manifest.json') as { workflows: { id: string; split: string }[] }).workflows.filter(inSplit);
const originals = new Map<string, Set<string>>();
const changed: { workflow: string; fixes: string[] }[] = [];
for (const w of workflows) {
  const workflow = read(`real/${w.id}.json`);
  originals.set(w.id, new Set(validateWorkflow(workflow, catalog).errors.map(key)));
  const applied = autofix(workflow, catalog).fixes.filter((f) => f.applied);
  if (applied.length > 0) changed.push({ workflow: w.id, fixes: applied.map((f) => f.description) });
}

const mutants = (read('mutants/manifest.json') as { mutants: { id: string; workflow: string; kind: string }[] }).mutants.filter((m) =>
  originals.has(m.workflow),
);
const perKind: Record<string, { mutants: number; fixed: number }> = {};
for (const m of mutants) {
  const result = autofix(read(`mutants/${m.id}.json`), catalog);
  const before = originals.get(m.workflow)!;
  const row = (perKind[m.kind] ??= { mutants: 0, fixed: 0 });
  row.mutants++;
  if (result.after.errors.every((e) => before.has(key(e)))) row.fixed++;
}

const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
const fixed = Object.values(perKind).reduce((n, k) => n + k.fixed, 0);
console.log(`autofix, split ${flags.split}: ${mutants.length} mutants of ${workflows.length} real workflows`);
for (const [kind, k] of Object.entries(perKind).sort()) console.log(`  ${kind.padEnd(28)} ${String(k.mutants).padStart(4)}  fixed ${pct(k.fixed, k.mutants)}`);
console.log(`  all                          ${String(mutants.length).padStart(4)}  fixed ${pct(fixed, mutants.length)}`);
console.log(`real workflows changed: ${changed.length} of ${workflows.length}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/autofix.json',
  JSON.stringify({ date: new Date().toISOString(), split: flags.split, perKind, fixed, mutants: mutants.length, realChanged: changed }, null, 2) + '\n',
);
