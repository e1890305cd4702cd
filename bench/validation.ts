/**
 * Workflow validators compared, in one run, on the same real workflows and single-defect mutants:
 *   ours      validateWorkflow (src/workflows) over the built catalog (.catalog/entries.json), in-process
 *   n8n-mcp   n8n-mcp 2.87.0's validate_workflow tool over its stdio MCP server (MCP SDK Client +
 *             StdioClientTransport), its default profile ("runtime": options left out), offline
 *             (no N8N_API_URL, telemetry off)
 * For each: the share of real workflows with any error (every error listed in the JSON, for a human to
 * judge), the share of mutants detected per kind and overall (detected: at least one error on the
 * mutant that the validator does not report on the original, compared by code+node for ours and
 * node+message for n8n-mcp), and the time per workflow (real workflows, one at a time).
 *
 * Needs the corpus and mutants (.eval/, git-ignored, never committed):
 *   npx tsx scripts/eval/workflows/corpus.ts /work/.mirror/n8n-io+test-workflows/repo ...
 *   npm i --prefix .eval/oracle --ignore-scripts n8n-workflow@2.41.0 && npx tsx scripts/eval/workflows/mutants.ts
 *   npm i --prefix .eval/n8n-mcp n8n-mcp@2.87.0
 * and for ours the built catalog (npm run catalog:build).
 *
 *   npx tsx bench/validation.ts [--split dev|heldout|all] [--only ours,n8n-mcp] [--kinds old|new|all|k1,k2] [--per-kind N]
 *                               [--reuse FILE] [--out FILE] [--limit N] [--concurrency N]
 *   --kinds          which mutant kinds: old (the structural ones), new (inside parameters, issue 30), flow (issue 40: items
 *                    that run out before a Respond node, a field an earlier node does not put out; a warning counts), all (default), or a list
 *   --per-kind N     at most N mutants of each kind (the first by id), for a quicker n8n-mcp run
 *                    with --kinds other than all, or --per-kind, only the real workflows the chosen mutants come from
 *                    are validated (the real-workflow share is then over those alone)
 *   --reuse FILE     take the validators not run now (--only) from an earlier run's JSON on the same workflows
 *                    and mutants (n8n-mcp's answers do not change when ours does)
 *   --limit N        the first N workflows of the split (and their mutants), for a quick look
 *   --concurrency N  n8n-mcp server processes for the mutants (default 2); real workflows run one at a time
 *   N8N_MCP_NODE     the node binary for n8n-mcp (default /usr/bin/node: the one its better-sqlite3 was built for)
 * Prints a table and writes bench/results/validation.json (--out FILE: elsewhere).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectN8nMcp, N8N_MCP_NODE, N8N_MCP_VERSION, n8nMcpMissing } from './lib/n8nMcp.ts';
import { percentile, round } from './lib/stats.ts';
import { ALL_MUTANT_KINDS, FLOW_MUTANT_KINDS, MUTANT_KINDS, PARAMETER_MUTANT_KINDS } from '../scripts/eval/workflows/mutants.ts';

const { values: flags } = parseArgs({
  options: {
    split: { type: 'string', default: 'dev' },
    only: { type: 'string', default: 'ours,n8n-mcp' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    corpus: { type: 'string', default: '.eval/workflows' },
    kinds: { type: 'string', default: 'all' },
    'per-kind': { type: 'string' },
    out: { type: 'string', default: 'bench/results/validation.json' },
    reuse: { type: 'string' },
  },
});
const SPLIT = flags.split!;
if (!['dev', 'heldout', 'all'].includes(SPLIT)) throw new Error(`--split dev|heldout|all, not ${SPLIT}`);
const CORPUS = flags.corpus!;
const ONLY = new Set(flags.only!.split(','));
const CONCURRENCY = Math.max(1, Number(flags.concurrency));
const KIND_GROUPS: Record<string, readonly string[]> = { old: MUTANT_KINDS, new: PARAMETER_MUTANT_KINDS, flow: FLOW_MUTANT_KINDS, all: ALL_MUTANT_KINDS };
/** Kinds whose defect a validator may rightly report as a warning (the run goes on, the answer is wrong): a warning counts too. */
const WARNING_COUNTS = new Set<string>(FLOW_MUTANT_KINDS);
const KINDS = new Set(KIND_GROUPS[flags.kinds!] ?? flags.kinds!.split(','));
for (const k of KINDS) if (!(ALL_MUTANT_KINDS as readonly string[]).includes(k)) throw new Error(`--kinds: no mutant kind ${k}`);
const OUT = flags.out!;
const PER_KIND = flags['per-kind'] === undefined ? Infinity : Number(flags['per-kind']);
const N8N_MCP_PROFILE = 'runtime';
const CALL_TIMEOUT_MS = 120_000;

interface Finding {
  node: string | null;
  code?: string;
  message: string;
}
interface Outcome {
  errors: Finding[];
  warnings: Finding[];
  ms: number;
  /** The validator itself failed (threw, timed out, tool error): counted as no answer. */
  failure?: string;
  /** The answer broke the tool's declared output schema (an SDK Client.callTool would have thrown). */
  schemaViolation?: string;
}
interface Validator {
  name: string;
  /** How two errors are told apart when comparing a mutant with its original. */
  key(f: Finding): string;
  /** Validators that can run several at once take a worker index. */
  workers: number;
  validate(workflow: unknown, worker: number): Promise<Outcome>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Data

interface CorpusEntry {
  id: string;
  split: string;
  source: string;
  repo: string;
}
interface MutantEntry {
  id: string;
  workflow: string;
  split: string;
  kind: string;
  node: string;
  description: string;
}

function loadData() {
  const manifestFile = `${CORPUS}/manifest.json`;
  const mutantsFile = `${CORPUS}/mutants/manifest.json`;
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: npx tsx scripts/eval/workflows/corpus.ts <bare git dir> ...`);
  if (!existsSync(mutantsFile)) throw new Error(`${mutantsFile} is missing: npx tsx scripts/eval/workflows/mutants.ts`);
  let workflows = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { workflows: CorpusEntry[] }).workflows.filter(
    (w) => SPLIT === 'all' || w.split === SPLIT,
  );
  if (flags.limit) workflows = workflows.slice(0, Number(flags.limit));
  const ids = new Set(workflows.map((w) => w.id));
  const taken = new Map<string, number>();
  const mutants = (JSON.parse(readFileSync(mutantsFile, 'utf8')) as { mutants: MutantEntry[] }).mutants
    .filter((m) => ids.has(m.workflow) && KINDS.has(m.kind))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((m) => {
      const n = taken.get(m.kind) ?? 0;
      taken.set(m.kind, n + 1);
      return n < PER_KIND;
    });
  if (PER_KIND !== Infinity || flags.kinds !== 'all') {
    const mutated = new Set(mutants.map((m) => m.workflow));
    workflows = workflows.filter((w) => mutated.has(w.id));
  }
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;
  return {
    workflows: workflows.map((w) => ({ ...w, content: read(`${CORPUS}/real/${w.id}.json`) })),
    mutants: mutants.map((m) => ({ ...m, content: read(`${CORPUS}/mutants/${m.id}.json`) })),
  };
}

// ---------------------------------------------------------------------------------------------
// Validators

/** Ours, imported lazily: the module may not exist yet. A string says why it is skipped. */
async function ours(): Promise<Validator | string> {
  const validatorFile = resolve('src/workflows/validateWorkflow.ts');
  const catalogFile = resolve('scripts/lib/nodeCatalog.ts');
  for (const f of [validatorFile, catalogFile]) if (!existsSync(f)) return `${f} does not exist yet`;
  if (!existsSync('.catalog/entries.json')) return '.catalog/entries.json is missing: npm run catalog:build';
  try {
    const { validateWorkflow } = (await import(pathToFileURL(validatorFile).href)) as {
      validateWorkflow: (w: unknown, c: unknown) => { errors: Finding[]; warnings: Finding[] };
    };
    const { loadNodeCatalog } = (await import(pathToFileURL(catalogFile).href)) as { loadNodeCatalog: (file?: string) => unknown };
    const catalog = loadNodeCatalog();
    return {
      name: 'ours',
      key: (f) => `${f.code ?? f.message}|${f.node ?? ''}`,
      workers: 1,
      async validate(workflow) {
        const start = performance.now();
        try {
          const r = validateWorkflow(structuredClone(workflow), catalog);
          const ms = performance.now() - start;
          const finding = (f: Finding) => ({ node: f.node ?? null, code: f.code, message: f.message });
          return { errors: r.errors.map(finding), warnings: r.warnings.map(finding), ms };
        } catch (e) {
          return { errors: [], warnings: [], ms: performance.now() - start, failure: `threw: ${(e as Error).stack ?? e}` };
        }
      },
      async close() {},
    };
  } catch (e) {
    return `could not load: ${(e as Error).message}`;
  }
}

/** n8n-mcp's stdio server, `workers` processes of it. */
async function n8nMcp(workers: number): Promise<Validator | string> {
  const missing = n8nMcpMissing();
  if (missing) return missing;
  const clients: Client[] = [];
  for (let i = 0; i < workers; i++) clients.push(await connectN8nMcp('validation-bench'));
  const tools = await clients[0]!.listTools();
  if (!tools.tools.some((t) => t.name === 'validate_workflow')) return 'n8n-mcp has no validate_workflow tool';
  return {
    name: 'n8n-mcp',
    key: (f) => `${f.node ?? ''}|${f.message}`,
    workers,
    async validate(workflow, worker) {
      const start = performance.now();
      try {
        // Options left out: the tool's defaults, profile "runtime". A plain tools/call request, not
        // Client.callTool: that one rejects answers whose structuredContent breaks the tool's own output
        // schema, which n8n-mcp's sometimes do (errors[].details not a string); those are counted apart.
        const r = await clients[worker]!.request(
          { method: 'tools/call', params: { name: 'validate_workflow', arguments: { workflow: workflow as Record<string, unknown> } } },
          CallToolResultSchema,
          { timeout: CALL_TIMEOUT_MS },
        );
        const ms = performance.now() - start;
        const text = r.content.find((c) => c.type === 'text')?.text ?? '';
        if (r.isError) return { errors: [], warnings: [], ms, failure: `tool error: ${text.slice(0, 500)}` };
        const body = (r.structuredContent ?? JSON.parse(text)) as {
          errors?: { node?: string; message: string; details?: unknown }[];
          warnings?: { node?: string; message: string; details?: unknown }[];
        };
        const bad = [...(body.errors ?? []), ...(body.warnings ?? [])].find((f) => f.details !== undefined && typeof f.details !== 'string');
        return {
          errors: (body.errors ?? []).map((e) => ({ node: e.node ?? null, message: e.message })),
          warnings: (body.warnings ?? []).map((w) => ({ node: w.node ?? null, message: w.message })),
          ms,
          ...(bad ? { schemaViolation: `details is ${JSON.stringify(bad.details).slice(0, 200)}` } : {}),
        };
      } catch (e) {
        return { errors: [], warnings: [], ms: performance.now() - start, failure: `call failed: ${(e as Error).message}` };
      }
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Running

async function runAll<T>(validator: Validator, items: T[], run: (item: T, worker: number) => Promise<void>, label: string) {
  let next = 0;
  let done = 0;
  const tick = setInterval(() => console.error(`${validator.name}: ${label} ${done}/${items.length}`), 30_000);
  await Promise.all(
    Array.from({ length: validator.workers }, async (_, worker) => {
      while (next < items.length) {
        const item = items[next++]!;
        await run(item, worker);
        done++;
      }
    }),
  );
  clearInterval(tick);
}

async function evaluate(validator: Validator, data: ReturnType<typeof loadData>) {
  // Real workflows one at a time (the timing), then the mutants on every worker.
  const originals = new Map<string, Outcome>();
  await runAll({ ...validator, workers: 1 }, data.workflows, async (w) => void originals.set(w.id, await validator.validate(w.content, 0)), 'real');
  const outcomes = new Map<string, Outcome>();
  await runAll(validator, data.mutants, async (m, worker) => void outcomes.set(m.id, await validator.validate(m.content, worker)), 'mutants');

  const realTimes = data.workflows.map((w) => originals.get(w.id)!.ms).sort((a, b) => a - b);
  const withError = data.workflows.filter((w) => originals.get(w.id)!.errors.length > 0);
  const realFailures = data.workflows.filter((w) => originals.get(w.id)!.failure).map((w) => ({ workflow: w.id, failure: originals.get(w.id)!.failure }));

  const mutantRows = data.mutants.map((m) => {
    const counted = (o: Outcome) => (WARNING_COUNTS.has(m.kind) ? [...o.errors, ...o.warnings] : o.errors);
    const before = new Set(counted(originals.get(m.workflow)!).map(validator.key));
    const out = outcomes.get(m.id)!;
    const fresh = counted(out).filter((e) => !before.has(validator.key(e)));
    const atNode = fresh.some((e) => e.node === m.node);
    return {
      id: m.id,
      kind: m.kind,
      node: m.node,
      detected: fresh.length > 0,
      atNode,
      failure: out.failure,
      schemaViolation: out.schemaViolation,
      newErrors: fresh.slice(0, 3),
    };
  });
  const kinds = [...new Set(data.mutants.map((m) => m.kind))];
  const share = (n: number, of: number) => (of === 0 ? null : round(n / of, 3));
  const perKind = Object.fromEntries(
    kinds.map((k) => {
      const rows = mutantRows.filter((r) => r.kind === k);
      const detected = rows.filter((r) => r.detected).length;
      return [k, { mutants: rows.length, detected, share: share(detected, rows.length), atNodeShare: share(rows.filter((r) => r.atNode).length, rows.length) }];
    }),
  );
  const detected = mutantRows.filter((r) => r.detected).length;
  return {
    real: {
      workflows: data.workflows.length,
      withError: withError.length,
      share: share(withError.length, data.workflows.length),
      errorCount: withError.reduce((n, w) => n + originals.get(w.id)!.errors.length, 0),
      perSource: Object.fromEntries(
        [...new Set(data.workflows.map((w) => w.repo))].sort().map((repo) => {
          const of = data.workflows.filter((w) => w.repo === repo);
          const bad = of.filter((w) => originals.get(w.id)!.errors.length > 0).length;
          return [repo, { workflows: of.length, withError: bad, share: share(bad, of.length) }];
        }),
      ),
      failures: realFailures,
      errors: withError.flatMap((w) =>
        originals.get(w.id)!.errors.map((e) => ({ workflow: w.id, node: e.node, ...(e.code ? { code: e.code } : {}), message: e.message })),
      ),
    },
    mutants: {
      total: mutantRows.length,
      detected,
      share: share(detected, mutantRows.length),
      atNodeShare: share(mutantRows.filter((r) => r.atNode).length, mutantRows.length),
      failures: mutantRows.filter((r) => r.failure).length,
      schemaViolations: mutantRows.filter((r) => r.schemaViolation).length + data.workflows.filter((w) => originals.get(w.id)!.schemaViolation).length,
      perKind,
      detail: mutantRows,
    },
    timing: {
      note: 'per real workflow, one at a time; n8n-mcp includes the stdio round trip',
      meanMs: round(realTimes.reduce((a, b) => a + b, 0) / Math.max(1, realTimes.length), 3),
      p50Ms: round(percentile(realTimes, 50), 3),
      p99Ms: round(percentile(realTimes, 99), 3),
    },
  };
}

const data = loadData();
console.error(`split ${SPLIT}: ${data.workflows.length} real workflows, ${data.mutants.length} mutants`);
/** A digest of exactly what was validated, so a later --reuse can tell it is the same. */
const INPUTS = createHash('sha256')
  .update(JSON.stringify([data.workflows.map((w) => [w.id, w.content]), data.mutants.map((m) => [m.id, m.content])]))
  .digest('hex');
const report: Record<string, unknown> = {};
const results: Record<string, Awaited<ReturnType<typeof evaluate>>> = {};
const makers: [string, () => Promise<Validator | string>][] = [
  ['ours', ours],
  ['n8n-mcp', () => n8nMcp(CONCURRENCY)],
];
for (const [name, make] of makers) {
  if (!ONLY.has(name)) continue;
  const v = await make();
  if (typeof v === 'string') {
    console.error(`${name}: skipped, ${v}`);
    report[name] = { skipped: v };
    continue;
  }
  results[name] = await evaluate(v, data);
  report[name] = results[name];
  await v.close();
  console.error(`${name}: done`);
}
if (flags.reuse) reuse(flags.reuse);

/**
 * Results of the validators not run now, from an earlier run's JSON on the same real workflows and
 * mutants: n8n-mcp's answers do not change when ours does, so a re-run of ours need not wait for it.
 */
function reuse(file: string) {
  const earlier = JSON.parse(readFileSync(file, 'utf8')) as {
    date: string;
    inputs?: string;
    validators: Record<string, Awaited<ReturnType<typeof evaluate>> | { skipped: string }>;
  };
  const mutantIds = JSON.stringify(data.mutants.map((m) => m.id).sort());
  for (const [name, r] of Object.entries(earlier.validators)) {
    if (name in results || 'skipped' in r) continue;
    const same =
      earlier.inputs === undefined
        ? r.real.workflows === data.workflows.length && JSON.stringify(r.mutants.detail.map((d) => d.id).sort()) === mutantIds
        : earlier.inputs === INPUTS;
    if (!same)
      throw new Error(`--reuse ${file}: ${name} ran on other workflows or mutants (regenerate the mutants with the same seed and corpus, or run it again)`);
    results[name] = r;
    report[name] = { ...r, reusedFrom: `${file} (${earlier.date})` };
    console.error(`${name}: reused from ${file} (${earlier.date})`);
  }
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const names = Object.keys(results);
console.log(`\nworkflow validation, split ${SPLIT}: ${data.workflows.length} real workflows, ${data.mutants.length} mutants\n`);
console.log('validator   real w/ error   mutants detected  (error on that node)   ms/workflow p50   p99');
for (const n of names) {
  const r = results[n]!;
  console.log(
    `${n.padEnd(10)} ${`${r.real.withError}/${r.real.workflows} ${pct(r.real.share)}`.padStart(15)} ${`${r.mutants.detected}/${r.mutants.total} ${pct(r.mutants.share)}`.padStart(18)} ${pct(r.mutants.atNodeShare).padStart(21)} ${r.timing.p50Ms.toFixed(2).padStart(17)} ${r.timing.p99Ms.toFixed(1).padStart(7)}`,
  );
}
for (const n of names) {
  const m = results[n]!.mutants;
  if (m.failures || m.schemaViolations || results[n]!.real.failures.length)
    console.log(
      `${n.padEnd(10)} no answer on ${results[n]!.real.failures.length} real workflows and ${m.failures} mutants; ${m.schemaViolations} answers broke the tool's own output schema`,
    );
}
if (names.length) {
  const sources = Object.keys(results[names[0]!]!.real.perSource);
  console.log(`\nreal workflows with an error, per repository  n   ${names.map((n) => n.padStart(9)).join(' ')}`);
  for (const source of sources) {
    const total = results[names[0]!]!.real.perSource[source]!.workflows;
    console.log(`${source.padEnd(38)} ${String(total).padStart(5)}  ${names.map((n) => pct(results[n]!.real.perSource[source]?.share).padStart(9)).join(' ')}`);
  }
}
for (const [n, r] of Object.entries(report))
  if ((r as { skipped?: string }).skipped) console.log(`${n.padEnd(10)} skipped: ${(r as { skipped: string }).skipped}`);
if (names.length) {
  const present = new Set(names.flatMap((n) => Object.keys(results[n]!.mutants.perKind)));
  for (const [group, kinds] of [
    ['earlier kinds (structure)', MUTANT_KINDS],
    ['issue 30 kinds (inside parameters)', PARAMETER_MUTANT_KINDS],
    ['issue 40 kinds (flow; warnings count)', FLOW_MUTANT_KINDS],
  ] as const) {
    const shown = kinds.filter((k) => present.has(k));
    if (shown.length === 0) continue;
    console.log(`\n${group.padEnd(42)}     n   ${names.map((n) => n.padStart(9)).join(' ')}`);
    for (const k of shown) {
      const total = results[names[0]!]!.mutants.perKind[k]?.mutants ?? 0;
      console.log(`${k.padEnd(42)} ${String(total).padStart(5)}  ${names.map((n) => pct(results[n]!.mutants.perKind[k]?.share).padStart(9)).join(' ')}`);
    }
    const sum = (n: string) =>
      shown.reduce(
        (acc, k) => ({
          mutants: acc.mutants + (results[n]!.mutants.perKind[k]?.mutants ?? 0),
          detected: acc.detected + (results[n]!.mutants.perKind[k]?.detected ?? 0),
        }),
        { mutants: 0, detected: 0 },
      );
    const all = sum(names[0]!).mutants;
    console.log(`${'all of these'.padEnd(42)} ${String(all).padStart(5)}  ${names.map((n) => pct(all ? sum(n).detected / all : null).padStart(9)).join(' ')}`);
  }
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  OUT,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      split: SPLIT,
      inputs: INPUTS,
      kinds: [...KINDS],
      perKind: PER_KIND === Infinity ? null : PER_KIND,
      workflows: data.workflows.length,
      mutants: data.mutants.length,
      detection:
        'a mutant is detected when the validator reports an error on it that it does not report on the original (ours: code+node; n8n-mcp: node+message); for the issue 40 kinds (FLOW_MUTANT_KINDS) a warning counts as well, for both',
      n8nMcp: {
        version: N8N_MCP_VERSION,
        tool: 'validate_workflow',
        profile: `${N8N_MCP_PROFILE} (the default: options left out)`,
        node: N8N_MCP_NODE,
        processes: CONCURRENCY,
      },
      validators: report,
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${OUT}`);
