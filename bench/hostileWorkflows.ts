/**
 * The worst a call of validate_workflow, autofix_workflow or edit_workflow can cost within the limits
 * of src/workflows/limits.ts: workflows built to make each rule work hardest (long strings of `{{` and
 * `$json`, thousands of references a letter off thousands of long names, the longest chain, the most
 * connections to a missing node, the longest names, the deepest parameters, the most parameters, node
 * types a letter off, nodes whose errors invite explanation), each beside a typical 30-node workflow.
 *
 *   in Node:    the pure core (src/workflows) warm: CPU per call, p50/p99 over --runs calls, and the
 *               answer's size in bytes; edit_workflow's core is applyOperations + judgeEdit with 100
 *               operations (97 renames, whose references follow, and an added node that is wrong)
 *   in workerd: `npm run dev`'s Worker (wrangler dev, rate limits off, a fake n8n for edit_workflow):
 *               server CPU per tools/call averaged over --runs calls (wrangler's and workerd's processes,
 *               10 ms ticks), and the answer's size
 *
 *   npm run bench:hostile [-- --runs N] [--only a,b] [--node-only] [--src DIR --out FILE]
 *
 * --src measures another checkout's src/workflows in Node (the code before a change: it needs an
 * editVerdict.ts with judgeEdit there). Writes bench/results/hostile-workflows.json (or --out).
 * Needs the built catalog (.catalog/entries.json): `npm run dev` or `npm run catalog:build` makes it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { NodeSpec } from '../src/catalog/nodeSpec.ts';
import { LIMITS, workflowOverLimit } from '../src/workflows/limits.ts';
import { catalogOf, type NodeCatalog } from '../src/workflows/nodeCatalog.ts';
import { loadSpecs } from '../scripts/lib/nodeCatalog.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { startFakeN8n } from '../test/fakes/n8n/server.ts';
import { serverCpuMs } from './lib/cpu.ts';
import { exampleWorkflow } from './lib/exampleWorkflow.ts';
import { openSession } from './lib/mcpClient.ts';
import { percentile, round } from './lib/stats.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    only: { type: 'string' },
    'node-only': { type: 'boolean', default: false },
    src: { type: 'string', default: 'src' },
    out: { type: 'string', default: 'bench/results/hostile-workflows.json' },
  },
});
const RUNS = Number(args.runs);
/** What a request may carry (src/config.ts MAX_BODY_BYTES is 4 MiB), less room for the JSON-RPC envelope. */
const MAX_WORKFLOW_BYTES = 4_000_000;

type Json = Record<string, unknown>;
interface Workflow {
  name: string;
  nodes: Json[];
  connections: Json;
  settings: Json;
}
interface Case {
  name: string;
  what: string;
  workflow: Workflow;
}

// ---- The workflows -------------------------------------------------------------------------------

const node = (name: string, type: string, typeVersion: number, parameters: Json = {}): Json => ({
  id: `id-${name.slice(0, 40)}-${name.length}`,
  name,
  type,
  typeVersion,
  position: [0, 0],
  parameters,
});
const set = (name: string, parameters: Json = {}) => node(name, 'n8n-nodes-base.set', 3.4, parameters);
const trigger = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger', 1);
const target = (name: string) => ({ node: name, type: 'main', index: 0 });
const workflow = (name: string, nodes: Json[], connections: Json = {}): Workflow => ({ name, nodes, connections, settings: { executionOrder: 'v1' } });

/** `names` connected one after the other on their first main output (and the last back to `loopTo`, if given). */
function chain(names: string[], loopTo?: string): Json {
  const connections: Json = {};
  names.forEach((name, i) => {
    const next = i + 1 < names.length ? names[i + 1] : loopTo;
    if (next !== undefined) connections[name] = { main: [[target(next)]] };
  });
  return connections;
}

/** A name of exactly `length` characters, unique by `i`. */
const longName = (i: number, length: number, fill = 'a') => `${String(i).padStart(5, '0')}${fill.repeat(length - 5)}`;

/** Two-letter tags: 676 of them, enough to tell thousands of names apart at both ends. */
const tag = (i: number) => String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26));

function cases(specs: NodeSpec[]): Case[] {
  const text = LIMITS.textLength;
  const list: Case[] = [
    {
      name: 'reference',
      what: 'a typical workflow: 30 nodes of the catalog’s own examples',
      workflow: { ...exampleWorkflow(specs), settings: { executionOrder: 'v1' } } as Workflow,
    },
    {
      name: 'braces',
      what: `two ${text.toLocaleString('en-US')}-character texts of "{{ $json " repeated, one an expression left open`,
      workflow: workflow(
        'braces',
        [trigger(), set('Set', { text: '{{ $json '.repeat(text / 9), value: `={{ ${'$json.a {{ '.repeat((text - 4) / 11)}` })],
        chain(['Start', 'Set']),
      ),
    },
  ];
  // Names a_i + M + b_i and references c + M + d of two letters more: every pair is compared all along, and none is near.
  const middle = 'm'.repeat(LIMITS.nameLength - 4);
  const nearNames = Array.from({ length: LIMITS.nodes - 2 }, (_, i) => `${tag(i)}${middle}${tag(Math.floor(i / 676) + 7)}`);
  const references = Array.from({ length: 800 }, (_, i) => `$('z${tag(i)}${middle}${tag(i + 3)}z').item.json.x`).join(';\n');
  list.push({
    name: 'references',
    what: `${nearNames.length.toLocaleString('en-US')} nodes of ${LIMITS.nameLength}-character names, and a Code node with 800 references each two letters longer`,
    workflow: workflow(
      'references',
      [trigger(), node('Code', 'n8n-nodes-base.code', 2, { jsCode: references }), ...nearNames.map((name) => set(name))],
      chain(['Start', 'Code']),
    ),
  });
  const chained = Array.from({ length: LIMITS.nodes - 1 }, (_, i) => `Node ${i + 1}`);
  list.push({
    name: 'chain',
    what: `${LIMITS.nodes.toLocaleString('en-US')} nodes in one chain, all but the trigger in a loop with no exit`,
    workflow: workflow('chain', [trigger(), ...chained.map((name) => set(name))], { Start: { main: [[target(chained[0]!)]] }, ...chain(chained, chained[0]) }),
  });
  const source = longName(1, LIMITS.nameLength, 's');
  const missing = longName(2, LIMITS.nameLength, 't');
  const targets = Math.floor((MAX_WORKFLOW_BYTES - 3 * LIMITS.nameLength) / JSON.stringify(target(missing)).length) - 10;
  list.push({
    name: 'missing-target',
    what: `a node of a ${LIMITS.nameLength}-character name connected ${targets.toLocaleString('en-US')} times to a missing one of such a name`,
    workflow: workflow('missing-target', [trigger(), set(source)], {
      Start: { main: [[target(source)]] },
      [source]: { main: [Array.from({ length: targets }, () => target(missing))] },
    }),
  });
  const longNames = Array.from({ length: Math.floor(MAX_WORKFLOW_BYTES / (3 * LIMITS.nameLength + 300)) }, (_, i) => longName(i, LIMITS.nameLength));
  list.push({
    name: 'long-names',
    what: `${longNames.length.toLocaleString('en-US')} nodes of ${LIMITS.nameLength}-character names, chained, each with a wrong choice`,
    workflow: workflow('long-names', [trigger(), ...longNames.map((name) => set(name, { mode: 'nope' }))], {
      Start: { main: [[target(longNames[0]!)]] },
      ...chain(longNames),
    }),
  });
  const deep = (leaves: number) => {
    let value: Json = Object.fromEntries(Array.from({ length: leaves }, (_, i) => [`l${i}`, '={{ $json.x ']));
    for (let level = 0; level < LIMITS.depth - 6; level++) value = { [longName(level, LIMITS.nameLength, 'k')]: value };
    return value;
  };
  list.push({
    name: 'deep',
    what: `20 nodes whose parameters nest ${LIMITS.depth - 6} levels of ${LIMITS.nameLength}-character keys, over 1,500 open expressions each`,
    workflow: workflow('deep', [trigger(), ...Array.from({ length: 20 }, (_, i) => set(`Deep ${i}`, { options: deep(1_500) }))]),
  });
  const parameters = LIMITS.values - 50;
  list.push({
    name: 'many-parameters',
    what: `${parameters.toLocaleString('en-US')} parameters a Set node does not have, each "{{ $json.a }}" without its "="`,
    workflow: workflow(
      'many-parameters',
      [trigger(), set('Set', Object.fromEntries(Array.from({ length: parameters }, (_, i) => [`p${i}`, '{{ $json.a }}'])))],
      chain(['Start', 'Set']),
    ),
  });
  const known = [...new Set(specs.map((s) => s.subtype).filter((t) => t.startsWith('n8n-nodes-base.')))];
  list.push({
    name: 'unknown-types',
    what: `${(LIMITS.nodes - 1).toLocaleString('en-US')} nodes whose types are each a letter off one of n8n's`,
    workflow: workflow('unknown-types', [
      trigger(),
      ...Array.from({ length: LIMITS.nodes - 1 }, (_, i) => node(`N${i}`, `${known[i % known.length]!}${tag(i)[0]}`, 1)),
    ]),
  });
  list.push({
    name: 'explain',
    what: `${(LIMITS.nodes - 1).toLocaleString('en-US')} uProc nodes with a wrong tool: each invites trying its other groups`,
    workflow: workflow('explain', [
      trigger(),
      ...Array.from({ length: LIMITS.nodes - 1 }, (_, i) => node(`U${i}`, 'n8n-nodes-base.uproc', 1, { tool: 'nope', email: `={{ $('N${i}').item.json.x }}` })),
    ]),
  });
  for (const c of list) {
    const bytes = Buffer.byteLength(JSON.stringify(c.workflow));
    if (bytes > MAX_WORKFLOW_BYTES) throw new Error(`${c.name} is ${bytes} bytes: more than a request carries`);
    const over = workflowOverLimit(c.workflow);
    if (over) throw new Error(`${c.name} is not within the limits: ${over}`);
  }
  return args.only ? list.filter((c) => c.name === 'reference' || args.only!.split(',').includes(c.name)) : list;
}

/**
 * edit_workflow's worst within its 100 operations: 97 renames (every expression and connection
 * follows), a name, and a typeVersion no node has, last: a new error, whose operation is looked for.
 */
function operations(w: Workflow): Json[] {
  const renames = w.nodes.slice(1, 98).map((n) => {
    const name = n.name as string;
    return { type: 'renameNode', name, newName: `${name.length < LIMITS.nameLength ? name : name.slice(0, -1)}§` };
  });
  return [...renames, { type: 'updateName', name: 'edited' }, { type: 'updateNode', name: w.nodes[0]!.name, changes: { typeVersion: 99 } }];
}

// ---- In Node: the core ---------------------------------------------------------------------------

interface Core {
  validateWorkflow: (workflow: unknown, catalog: NodeCatalog) => unknown;
  autofix: (workflow: unknown, catalog: NodeCatalog) => Json;
  applyOperations: (workflow: Json, operations: Json[]) => Json;
  judgeEdit: (read: unknown, operations: Json[], edited: unknown, catalog: NodeCatalog) => Json;
}

async function loadCore(src: string): Promise<Core> {
  const at = (file: string) => import(resolve(src, 'workflows', file));
  const [validate, fix, operations, verdict] = await Promise.all([at('validateWorkflow.ts'), at('autofix.ts'), at('operations.ts'), at('editVerdict.ts')]);
  return { validateWorkflow: validate.validateWorkflow, autofix: fix.autofix, applyOperations: operations.applyOperations, judgeEdit: verdict.judgeEdit };
}

interface Measured {
  cpuP50Ms: number;
  cpuP99Ms: number;
  answerBytes: number;
  runs: number;
}

/** CPU per call of `call` over `runs` calls after one to warm up, and the size of its answer. */
function measure(call: () => unknown, runs: number): Measured {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const first = cpu();
  const answer = call();
  const firstMs = cpu() - first;
  // A call past ten seconds is measured once: its repetitions would say nothing more.
  const repeat = firstMs > 10_000 ? 0 : runs;
  const times: number[] = [firstMs];
  for (let i = 0; i < repeat; i++) {
    const t = cpu();
    call();
    times.push(cpu() - t);
  }
  if (repeat > 0) times.shift();
  times.sort((a, b) => a - b);
  return {
    cpuP50Ms: round(percentile(times, 50), 2),
    cpuP99Ms: round(percentile(times, 99), 2),
    answerBytes: Buffer.byteLength(JSON.stringify(answer)),
    runs: times.length,
  };
}

function inNode(core: Core, catalog: NodeCatalog, c: Case) {
  const runs = c.name === 'reference' ? RUNS * 10 : RUNS;
  const ops = operations(c.workflow);
  return {
    validate_workflow: measure(() => core.validateWorkflow(c.workflow, catalog), runs),
    autofix_workflow: measure(() => {
      const { before, ...rest } = core.autofix(c.workflow, catalog) as { before: { errors: unknown[]; warnings: unknown[] } };
      return { ...rest, before: { errors: before.errors.length, warnings: before.warnings.length } };
    }, runs),
    edit_workflow: measure(() => {
      const outcome = core.applyOperations(c.workflow as unknown as Json, ops) as { ok: boolean; workflow: unknown };
      if (!outcome.ok) throw new Error(`${c.name}: the operations did not apply: ${JSON.stringify(outcome).slice(0, 300)}`);
      return { ...core.judgeEdit(c.workflow, ops, outcome.workflow, catalog), workflow: outcome.workflow };
    }, runs),
  };
}

// ---- In workerd: the tools -----------------------------------------------------------------------

async function inWorkerd(list: Case[]) {
  const n8nKey = 'n8n_api_bench_key';
  const n8n = await startFakeN8n(n8nKey);
  const server = await startWranglerDev({ vars: { RATE_LIMITS: 'off', N8N_API_URL: n8n.url, N8N_API_KEY: n8nKey } });
  try {
    const session = await openSession({ url: `${server.url}/mcp`, apiKey: server.apiKey });
    let id = 1;
    const tool = async (name: string, toolArgs: Json) => {
      const { result, error } = await session.request(id++, 'tools/call', { name, arguments: toolArgs });
      if (error || !result) throw new Error(`${name}: ${JSON.stringify(error).slice(0, 300)}`);
      return result;
    };
    const rows: Record<string, Record<string, { serverCpuMsPerCall: number | null; answerBytes: number; error?: string }>> = {};
    for (const c of list) {
      const created = await fetch(`${n8n.url}/api/v1/workflows`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-n8n-api-key': n8nKey },
        body: JSON.stringify(c.workflow),
      });
      if (!created.ok) throw new Error(`${c.name}: the fake n8n refused the workflow: ${(await created.text()).slice(0, 300)}`);
      const workflowId = ((await created.json()) as { id: string }).id;
      const calls: [string, Json][] = [
        ['validate_workflow', { workflow: c.workflow }],
        ['autofix_workflow', { workflow: c.workflow }],
        ['edit_workflow', { id: workflowId, operations: operations(c.workflow), validateOnly: true }],
      ];
      rows[c.name] = {};
      for (const [name, toolArgs] of calls) {
        const answer = await tool(name, toolArgs);
        const runs = c.name === 'reference' ? RUNS * 10 : RUNS;
        const before = serverCpuMs();
        for (let i = 0; i < runs; i++) await tool(name, toolArgs);
        const after = serverCpuMs();
        rows[c.name]![name] = {
          serverCpuMsPerCall: before === null || after === null ? null : round((after - before) / runs, 1),
          answerBytes: Buffer.byteLength(JSON.stringify(answer)),
          ...(answer.isError ? { error: JSON.stringify(answer.content).slice(0, 300) } : {}),
        };
        const row = rows[c.name]![name]!;
        console.log(
          `  workerd ${c.name.padEnd(16)} ${name.padEnd(18)} server CPU ${row.serverCpuMsPerCall} ms/call, answer ${row.answerBytes.toLocaleString('en-US')} bytes${row.error ? ` (an error: ${row.error.slice(0, 160)})` : ''}`,
        );
      }
    }
    return rows;
  } finally {
    await server.stop();
    await n8n.stop();
  }
}

// ---- Run -----------------------------------------------------------------------------------------

const specs = loadSpecs();
const catalog = catalogOf(specs);
const list = cases(specs);
const core = await loadCore(args.src);
console.log(`hostile workflows, ${list.length} cases, ${RUNS} runs each (the reference ${RUNS * 10}), code of ${args.src}`);
const nodeFigures: Record<string, ReturnType<typeof inNode>> = {};
for (const c of list) {
  console.log(`${c.name}: ${c.what} (${Buffer.byteLength(JSON.stringify(c.workflow)).toLocaleString('en-US')} bytes)`);
  nodeFigures[c.name] = inNode(core, catalog, c);
  for (const [tool, m] of Object.entries(nodeFigures[c.name]!)) {
    console.log(
      `  Node    ${tool.padEnd(18)} CPU p50 ${m.cpuP50Ms} ms, p99 ${m.cpuP99Ms} ms (${m.runs} runs), answer ${m.answerBytes.toLocaleString('en-US')} bytes`,
    );
  }
}
const workerd = args['node-only'] ? null : await inWorkerd(list);
mkdirSync('bench/results', { recursive: true });
const described = Object.fromEntries(
  list.map((c) => [
    c.name,
    { what: c.what, bytes: Buffer.byteLength(JSON.stringify(c.workflow)), node: nodeFigures[c.name], workerd: workerd?.[c.name] ?? null },
  ]),
);
writeFileSync(args.out, JSON.stringify({ date: new Date().toISOString(), src: args.src, runs: RUNS, limits: LIMITS, cases: described }, null, 2) + '\n');
