/**
 * The mutant kinds of issue 30 checked on a real n8n: small webhook workflows, each made so one kind
 * can be planted in it, go through `generateMutants` (n8n-workflow@2.41.0's logic as the oracle, as for
 * the corpus); the original and a few mutants of each kind are created on the n8n, activated, called
 * through their webhook with the same payload, deactivated and deleted. A mutant shows its defect when
 * n8n refuses it (saving or activating), the call fails, or the answer differs from the original's.
 *
 *   cd /work/main && npx tsx scripts/n8n/realN8n.ts      # a real n8n 1.123.81: prints its URL and an API key
 *   N8N_URL=http://127.0.0.1:PORT N8N_API_KEY=... npx tsx scripts/eval/workflows/realN8nMutants.ts [--per-kind 3] [--kinds k1,k2]
 *
 * Prints one line per workflow run and writes bench/results/realN8nMutants.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateMutants, loadN8nOracle, PARAMETER_MUTANT_KINDS, type MutantKind, type Wf, type WfNode } from './mutants.ts';

const { values: flags } = parseArgs({ options: { 'per-kind': { type: 'string', default: '3' }, kinds: { type: 'string' } } });
const PER_KIND = Number(flags['per-kind']);
const N8N_URL = process.env.N8N_URL;
const N8N_API_KEY = process.env.N8N_API_KEY;
if (!N8N_URL || !N8N_API_KEY) throw new Error('N8N_URL and N8N_API_KEY: start one with `npx tsx scripts/n8n/realN8n.ts`');

const FILTER_OPTIONS = { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 };
const webhook = (responseMode: 'lastNode' | 'responseNode'): WfNode => ({
  id: 'w1',
  name: 'Webhook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  position: [0, 0],
  parameters: { httpMethod: 'POST', path: 'PATH', responseMode, options: {} },
});
const set = (name: string, assignments: { name: string; value: string; type: string }[], x = 400): WfNode => ({
  id: `s-${name}`,
  name,
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  position: [x, 0],
  parameters: { assignments: { assignments: assignments.map((a, i) => ({ id: `${name}-${i}`, ...a })) }, options: {} },
});
const main = (...to: string[][]) => ({ main: to.map((list) => list.map((node) => ({ node, type: 'main', index: 0 }))) });

/** Per kind: a workflow where it can be planted, and a payload the original answers in a way the defect changes. */
const CASES: Partial<Record<MutantKind, { workflow: Wf; payload: Record<string, unknown> }>> = {};
const ifWorkflow: Wf = {
  nodes: [
    webhook('lastNode'),
    {
      id: 'i1',
      name: 'Check',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      position: [200, 0],
      parameters: {
        conditions: {
          options: FILTER_OPTIONS,
          conditions: [
            { id: 'c1', leftValue: '={{ $json.body.name }}', rightValue: 'ada', operator: { type: 'string', operation: 'equals' } },
            { id: 'c2', leftValue: '={{ $json.body.amount }}', rightValue: 5, operator: { type: 'number', operation: 'gt' } },
          ],
          combinator: 'and',
        },
        options: {},
      },
    },
    set('Yes', [{ name: 'result', value: 'yes', type: 'string' }]),
    set('No', [{ name: 'result', value: 'no', type: 'string' }]),
  ],
  connections: { Webhook: main(['Check']), Check: main(['Yes'], ['No']) },
};
for (const kind of ['filter_operation_wrong', 'filter_operator_type_wrong', 'filter_combinator_wrong'] as const)
  CASES[kind] = { workflow: ifWorkflow, payload: { name: 'ada', amount: 7 } };
CASES.assignment_type_wrong = {
  workflow: {
    nodes: [
      webhook('lastNode'),
      set(
        'Fields',
        [
          { name: 'total', value: '={{ $json.body.amount }}', type: 'number' },
          { name: 'paid', value: '={{ $json.body.paid }}', type: 'boolean' },
          { name: 'items', value: '={{ $json.body.items }}', type: 'array' },
        ],
        200,
      ),
    ],
    connections: { Webhook: main(['Fields']) },
  },
  payload: { amount: '12.5', paid: 'true', items: '[1,2]' },
};
const renameKeys: Wf = {
  nodes: [
    webhook('lastNode'),
    {
      id: 'r1',
      name: 'Rename',
      type: 'n8n-nodes-base.renameKeys',
      typeVersion: 1,
      position: [200, 0],
      parameters: { keys: { key: [{ currentKey: 'body.name', newKey: 'customer' }] }, additionalOptions: {} },
    },
    set('Answer', [{ name: 'customer', value: '={{ $json.customer }}', type: 'string' }]),
  ],
  connections: { Webhook: main(['Rename']), Rename: main(['Answer']) },
};
CASES.fixed_collection_unknown_subfield = { workflow: renameKeys, payload: { name: 'ada' } };
CASES.fixed_collection_required_subfield_removed = {
  workflow: {
    nodes: [
      { ...webhook('lastNode'), parameters: { httpMethod: 'POST', path: 'PATH', responseMode: 'lastNode', responseData: 'allEntries', options: {} } },
      {
        id: 'o1',
        name: 'Split',
        type: 'n8n-nodes-base.splitOut',
        typeVersion: 1,
        position: [200, 0],
        parameters: { fieldToSplitOut: 'body.items', options: {} },
      },
      {
        id: 'o2',
        name: 'Sort',
        type: 'n8n-nodes-base.sort',
        typeVersion: 1,
        position: [400, 0],
        parameters: { sortFieldsUi: { sortField: [{ fieldName: 'n', order: 'descending' }] }, options: {} },
      },
    ],
    connections: { Webhook: main(['Split']), Split: main(['Sort']) },
  },
  payload: { items: [{ n: 1 }, { n: 3 }, { n: 2 }] },
};
CASES.webhook_json_without_body = {
  workflow: {
    nodes: [webhook('lastNode'), set('Answer', [{ name: 'greeting', value: '=Hello {{ $json.body.name }}', type: 'string' }], 200)],
    connections: { Webhook: main(['Answer']) },
  },
  payload: { name: 'ada' },
};
CASES.respond_to_webhook_unreachable = {
  workflow: {
    nodes: [
      webhook('responseNode'),
      set('Answer', [{ name: 'greeting', value: '=Hello {{ $json.body.name }}', type: 'string' }], 200),
      {
        id: 'p1',
        name: 'Respond',
        type: 'n8n-nodes-base.respondToWebhook',
        typeVersion: 1.1,
        position: [400, 0],
        parameters: { respondWith: 'firstIncomingItem', options: {} },
      },
    ],
    connections: { Webhook: main(['Answer']), Answer: main(['Respond']) },
  },
  payload: { name: 'ada' },
};
CASES.removed_output_wired = {
  workflow: {
    nodes: [
      webhook('lastNode'),
      {
        id: 'x1',
        name: 'Route',
        type: 'n8n-nodes-base.switch',
        typeVersion: 3.2,
        position: [200, 0],
        parameters: {
          rules: {
            values: [
              {
                conditions: {
                  options: FILTER_OPTIONS,
                  conditions: [{ id: 'r1', leftValue: '={{ $json.body.kind }}', rightValue: 'a', operator: { type: 'string', operation: 'equals' } }],
                  combinator: 'and',
                },
              },
            ],
          },
          options: { fallbackOutput: 'extra' },
        },
      },
      set('Kind A', [{ name: 'route', value: 'a', type: 'string' }]),
      set('Other', [{ name: 'route', value: 'other', type: 'string' }]),
    ],
    connections: { Webhook: main(['Route']), Route: main(['Kind A'], ['Other']) },
  },
  payload: { kind: 'b' },
};

// ---------------------------------------------------------------------------------------------

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${N8N_URL}/api/v1${path}`, {
    method,
    headers: { 'X-N8N-API-KEY': N8N_API_KEY!, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // n8n answered text
  }
  return { status: res.status, json };
}

let counter = 0;
/** Create, activate, call and delete one workflow; what n8n did at each step. */
async function run(wf: Wf, payload: Record<string, unknown>): Promise<{ stage: string; status: number; answer: string }> {
  const path = `mutant-check-${process.pid}-${++counter}`;
  const nodes = wf.nodes.map((n) => (n.type === 'n8n-nodes-base.webhook' ? { ...n, webhookId: path, parameters: { ...n.parameters, path } } : n));
  const created = await api('POST', '/workflows', { name: path, nodes, connections: wf.connections, settings: { executionOrder: 'v1' } });
  if (created.status >= 300) return { stage: 'create', status: created.status, answer: JSON.stringify(created.json).slice(0, 300) };
  const id = created.json.id as string;
  try {
    const activated = await api('POST', `/workflows/${id}/activate`);
    if (activated.status >= 300) return { stage: 'activate', status: activated.status, answer: JSON.stringify(activated.json).slice(0, 300) };
    const res = await fetch(`${N8N_URL}/webhook/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(30_000),
    }).catch((e: Error) => ({ status: 0, text: async () => `no answer: ${e.message}` }));
    return { stage: 'call', status: res.status, answer: (await res.text()).slice(0, 300) };
  } finally {
    await api('POST', `/workflows/${id}/deactivate`);
    await api('DELETE', `/workflows/${id}`);
  }
}

const oracle = loadN8nOracle();
const rows: unknown[] = [];
for (const kind of PARAMETER_MUTANT_KINDS) {
  const c = CASES[kind];
  if (!c || (flags.kinds && !flags.kinds.split(',').includes(kind))) continue;
  const original = await run(c.workflow, c.payload);
  console.log(`\n${kind}\n  original: ${original.stage} ${original.status} ${original.answer}`);
  const seen = new Set<string>();
  for (let seed = 1; seed < 200 && seen.size < PER_KIND; seed++) {
    const [m] = generateMutants(c.workflow, oracle, { seed, id: kind, kinds: [kind] });
    if (!m || seen.has(JSON.stringify(m.workflow))) continue;
    seen.add(JSON.stringify(m.workflow));
    const got = await run(m.workflow, c.payload);
    const shows = got.stage !== 'call' || got.status !== original.status || got.answer !== original.answer;
    console.log(`  ${shows ? 'SHOWS' : 'HIDDEN'} ${m.description}\n     → ${got.stage} ${got.status} ${got.answer}`);
    rows.push({ kind, description: m.description, original, mutant: got, shows });
  }
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/realN8nMutants.json', JSON.stringify({ date: new Date().toISOString(), n8n: N8N_URL, rows }, null, 2));
console.log(
  `\n${rows.filter((r: any) => r.shows).length} of ${rows.length} mutants show their defect on the real n8n; wrote bench/results/realN8nMutants.json`,
);
