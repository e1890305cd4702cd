import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { OUTPUT_CHARS, THROWAWAY_PREFIX } from '../../src/tools/n8n/tryNodes';
import { connectedClient, n8nApi as n8n, type Json } from './client';
import { everyEntry } from '../support/n8nPages';
import { webhookTrigger } from '../support/workflows';

// The tool's module imports waitUntil from the Workers runtime, which Node lacks; only its constants are read here.
vi.mock('cloudflare:workers', () => ({ waitUntil: () => {} }));

/**
 * try_nodes against the real n8n: each node configuration is also run in a saved workflow made here
 * through n8n's own API (Webhook → a Code node that makes the items → the same nodes), called through
 * its webhook, its execution read back; the try must answer the same output items, per output, or the
 * same error. Afterwards nothing of the tries is left in n8n: no throwaway workflow, no execution of
 * one, counted before and after, after failed and cancelled runs too. It also checks on n8n what the
 * fake n8n of the workers tests stands for: a workflow's executions are deleted with it, and running
 * executions are listed only when asked for.
 */
const connected = connectedClient('e2e-real-n8n-try-nodes');
const { ok: call, call: rawCall } = connected;

const node = (name: string, type: string, typeVersion: number, parameters: Json = {}) => ({ name, type: `n8n-nodes-base.${type}`, typeVersion, parameters });
const code = (name: string, jsCode: string, mode = 'runOnceForAllItems') => node(name, 'code', 2, { mode, jsCode });
const assign = (name: string, value: unknown, type = 'string') => ({ id: name, name, value, type });
const set = (name: string, assignments: Json[], extra: Json = {}) =>
  node(name, 'set', 3.4, { mode: 'manual', assignments: { assignments }, options: {}, ...extra });
const condition = (leftValue: string, operation: string, rightValue: unknown, type = 'number', extra: Json = {}) => ({
  options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
  combinator: 'and',
  conditions: [{ id: 'c', leftValue, rightValue, operator: { type, operation, ...extra } }],
});
const link = (to: string, index = 0) => [{ node: to, type: 'main', index }];

const people = [
  { name: 'Ada', team: 'core', age: 36, tags: ['math', 'code'], joined: '2021-03-04T10:00:00.000Z' },
  { name: 'Grace', team: 'navy', age: 45, tags: ['cobol'], joined: '2019-11-30T08:30:00.000Z' },
  { name: 'Linus', team: 'core', age: 28, tags: [], joined: '2023-01-15T12:00:00.000Z' },
  { name: 'Ada', team: 'core', age: 36, tags: ['math', 'code'], joined: '2021-03-04T10:00:00.000Z' },
];

interface Case {
  nodes: Json[];
  items: Json[];
  connections?: Json;
  /** What n8n does with it, as this suite found (the comparison with the saved workflow is the check). */
  outcome: 'output' | 'error';
}

/** 26 configurations, each compared with the same nodes in a saved workflow. */
const CASES: Record<string, Case> = {
  'Edit Fields: a dotted name is a path (dot notation, the default)': {
    nodes: [set('Set', [assign('user.age', '={{ $json.age + 1 }}', 'number')])],
    items: people,
    outcome: 'output',
  },
  'Edit Fields: a dotted name kept as one key (dotNotation off)': {
    nodes: [set('Set', [assign('user.age', '={{ $json.age + 1 }}', 'number')], { options: { dotNotation: false } })],
    items: people,
    outcome: 'output',
  },
  'Edit Fields: only the fields set': {
    nodes: [set('Set', [assign('who', '={{ $json.name }}')], { includeOtherFields: false })],
    items: people,
    outcome: 'output',
  },
  'Edit Fields: an item without the field it reads': {
    nodes: [set('Set', [assign('double', '={{ $json.price * 2 }}', 'number')])],
    items: [{ price: 3 }, { name: 'no price' }],
    outcome: 'error',
  },
  'Edit Fields: a DateTime (Luxon) expression': {
    nodes: [set('Set', [assign('next', "={{ DateTime.fromISO($json.joined, { zone: 'utc' }).plus({ days: 1 }).toISODate() }}")])],
    items: people,
    outcome: 'output',
  },
  'IF: items on its true and false outputs': {
    nodes: [node('IF', 'if', 2.2, { conditions: condition('={{ $json.age }}', 'gt', 30), options: {} })],
    items: people,
    outcome: 'output',
  },
  'IF: an item without the field it compares': {
    nodes: [node('IF', 'if', 2.2, { conditions: condition('={{ $json.age }}', 'gt', 30), options: {} })],
    items: [{ age: 40 }, { name: 'no age' }],
    outcome: 'output',
  },
  'Filter: kept and discarded items': {
    nodes: [node('Filter', 'filter', 2.2, { conditions: condition('={{ $json.team }}', 'equals', 'core', 'string'), options: {} })],
    items: people,
    outcome: 'output',
  },
  'Switch: rules to three outputs, one renamed': {
    nodes: [
      node('Switch', 'switch', 3.2, {
        rules: {
          values: [
            { conditions: condition('={{ $json.team }}', 'equals', 'core', 'string'), renameOutput: true, outputKey: 'core' },
            { conditions: condition('={{ $json.team }}', 'equals', 'navy', 'string') },
            { conditions: condition('={{ $json.team }}', 'equals', 'none', 'string') },
          ],
        },
        options: {},
      }),
    ],
    items: people,
    outcome: 'output',
  },
  'Code: all items at once': {
    nodes: [code('Code', 'return $input.all().map((item, i) => ({ json: { i, upper: item.json.name.toUpperCase() } }));')],
    items: people,
    outcome: 'output',
  },
  'Code: each item': {
    nodes: [code('Code', 'return { json: { ...$json, initial: $json.name.slice(0, 1) } };', 'runOnceForEachItem')],
    items: people,
    outcome: 'output',
  },
  'Code: one that throws on an item without the field': {
    nodes: [
      code('Code', 'if ($json.need === undefined) throw new Error(`need is missing on item ${$itemIndex}`); return { json: $json };', 'runOnceForEachItem'),
    ],
    items: [{ need: 1 }, {}],
    outcome: 'error',
  },
  'Sort: by a field, descending': {
    nodes: [node('Sort', 'sort', 1, { sortFieldsUi: { sortField: [{ fieldName: 'age', order: 'descending' }] }, options: {} })],
    items: people,
    outcome: 'output',
  },
  'Limit: the first two': { nodes: [node('Limit', 'limit', 1, { maxItems: 2 })], items: people, outcome: 'output' },
  'Remove Duplicates: by a field': {
    nodes: [node('Dedupe', 'removeDuplicates', 2, { operation: 'removeDuplicateInputItems', compare: 'selectedFields', fieldsToCompare: 'name', options: {} })],
    items: people,
    outcome: 'output',
  },
  'Remove Duplicates: all fields, on items whose lists differ in length': {
    nodes: [node('Dedupe', 'removeDuplicates', 2, { operation: 'removeDuplicateInputItems', compare: 'allFields', options: {} })],
    items: people,
    outcome: 'error',
  },
  'Split Out: a list field': { nodes: [node('Split', 'splitOut', 1, { fieldToSplitOut: 'tags', options: {} })], items: people, outcome: 'output' },
  'Split Out: an item without the field': {
    nodes: [node('Split', 'splitOut', 1, { fieldToSplitOut: 'tags', options: {} })],
    items: [{ tags: ['a'] }, { name: 'no tags' }],
    outcome: 'output',
  },
  'Aggregate: a field into one list': {
    nodes: [node('Aggregate', 'aggregate', 1, { fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'name' }] }, options: {} })],
    items: people,
    outcome: 'output',
  },
  'Summarize: a sum per group': {
    nodes: [
      node('Summarize', 'summarize', 1.1, { fieldsToSummarize: { values: [{ aggregation: 'sum', field: 'age' }] }, fieldsToSplitBy: 'team', options: {} }),
    ],
    items: people,
    outcome: 'output',
  },
  'Rename Keys': {
    nodes: [node('Rename', 'renameKeys', 1, { keys: { key: [{ currentKey: 'name', newKey: 'fullName' }] }, additionalOptions: {} })],
    items: people,
    outcome: 'output',
  },
  'Date & Time: format a date': {
    nodes: [node('Date', 'dateTime', 2, { operation: 'formatDate', date: '={{ $json.joined }}', format: 'yyyy/MM/dd', outputFieldName: 'day', options: {} })],
    items: people,
    outcome: 'output',
  },
  'Crypto: SHA-256 of a field': {
    nodes: [node('Hash', 'crypto', 1, { action: 'hash', type: 'SHA256', value: '={{ $json.name }}', dataPropertyName: 'hash' })],
    items: people,
    outcome: 'output',
  },
  'HTML: extract content': {
    nodes: [
      node('HTML', 'html', 1.2, {
        operation: 'extractHtmlContent',
        sourceData: 'json',
        dataPropertyName: 'page',
        extractionValues: {
          values: [
            { key: 'title', cssSelector: 'h1' },
            { key: 'links', cssSelector: 'a', returnValue: 'attribute', attribute: 'href', returnArray: true },
          ],
        },
        options: {},
      }),
    ],
    items: [{ page: '<h1>Hello</h1><a href="/a">a</a><a href="/b">b</a>' }],
    outcome: 'output',
  },
  'Markdown: HTML to Markdown': {
    nodes: [node('Markdown', 'markdown', 1, { mode: 'htmlToMarkdown', html: '={{ $json.page }}', destinationKey: 'md', options: {} })],
    items: [{ page: '<h1>Hello</h1><p>Some <b>bold</b> text</p>' }],
    outcome: 'output',
  },
  'a chain: Edit Fields → Filter → Limit': {
    nodes: [
      set('Set', [assign('senior', '={{ $json.age > 30 }}', 'boolean')]),
      node('Filter', 'filter', 2.2, { conditions: condition('={{ $json.senior }}', 'true', '', 'boolean', { singleValue: true }), options: {} }),
      node('Limit', 'limit', 1, { maxItems: 1 }),
    ],
    items: people,
    outcome: 'output',
  },
  'a graph: IF → Edit Fields on each branch → Merge': {
    nodes: [
      node('IF', 'if', 2.2, { conditions: condition('={{ $json.age }}', 'gt', 30), options: {} }),
      set('Senior', [assign('group', 'senior')]),
      set('Junior', [assign('group', 'junior')]),
      node('Merge', 'merge', 3),
    ],
    connections: { IF: { main: [link('Senior'), link('Junior')] }, Senior: { main: [link('Merge')] }, Junior: { main: [link('Merge', 1)] } },
    items: people,
    outcome: 'output',
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `read` gives a value, for up to 30 s. */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 120; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(250);
  }
  throw new Error('timed out');
}

/** n8n's /healthz asked every 100 ms until `stop`, which answers how long each answer took (ms). */
function healthLatencies() {
  const latencies: number[] = [];
  let stopped = false;
  const probing = (async () => {
    while (!stopped) {
      const started = Date.now();
      await fetch(`${inject('realN8nUrl')}/healthz`);
      latencies.push(Date.now() - started);
      await sleep(100);
    }
  })();
  return { stop: async () => ((stopped = true), await probing, latencies) };
}

/** Every entry of one of n8n's lists. */
const all = (path: string) => everyEntry((p) => n8n('GET', p), path);

/** The workflows every try made (from their answers, or seen while a try ran). */
const tried = new Set<string>();

/**
 * What the tries left in n8n: throwaway workflows (by their name), and executions of any workflow a try
 * made, finished or still running.
 */
async function leftInN8n() {
  const workflows = (await all('/workflows')).filter((w) => String(w.name).startsWith(THROWAWAY_PREFIX)).map((w) => String(w.id));
  const ofTries = (e: Json) => tried.has(e.workflowId) || workflows.includes(e.workflowId);
  const executions = [...(await all('/executions')), ...(await all('/executions?status=running'))].filter(ofTries).map((e) => String(e.id));
  return { workflows, executions };
}
const NOTHING = { workflows: [], executions: [] };

/**
 * The same nodes in a saved workflow: Webhook (answers when the run is done) → a Code node that makes
 * the posted items n8n items → the nodes (chained, or as `connections` join them); created through n8n's
 * API, called, its execution read back, deleted.
 */
async function savedRun({ nodes, items, connections }: Case, settings: Json = {}): Promise<Json> {
  const path = `try-reference-${crypto.randomUUID()}`;
  const chain = Object.fromEntries(nodes.slice(0, -1).map((n, i) => [n.name, { main: [link(nodes[i + 1]!.name)] }]));
  const { id } = await n8n('POST', '/workflows', {
    name: `reference ${path}`,
    nodes: [
      {
        name: 'Hook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        webhookId: crypto.randomUUID(),
        position: [0, 0],
        parameters: { path, httpMethod: 'POST', responseMode: 'lastNode', responseData: 'noData', options: {} },
      },
      { ...code('Items', 'return $input.first().json.body.items.map((json) => ({ json }));'), position: [200, 0] },
      ...nodes.map((n, i) => ({ ...n, position: [400 + 200 * i, 0] })),
    ],
    connections: { Hook: { main: [link('Items')] }, Items: { main: [link(nodes[0]!.name)] }, ...(connections ?? chain) },
    settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', ...settings },
  });
  try {
    await n8n('POST', `/workflows/${id}/activate`);
    await fetch(`${inject('realN8nUrl')}/webhook/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    const done = await eventually(async () => (await n8n('GET', `/executions?workflowId=${id}`)).data.find((e: Json) => e.stoppedAt));
    return await n8n('GET', `/executions/${done.id}?includeData=true`);
  } finally {
    await n8n('DELETE', `/workflows/${id}`);
  }
}

/** Per output, the JSON of the items a node put out in an execution. */
const outputsIn = (execution: Json, name: string): unknown[][] =>
  (execution.data.resultData.runData[name].at(-1).data.main as (Json[] | null)[]).map((items) => (items ?? []).map((item) => item.json));

/** The same per output, as try_nodes answered it. */
const answeredOutputs = (output: Json): unknown[][] => (output.outputs ? output.outputs.map((o: Json) => o.items) : [output.items]);

/** The items per output of each node that ran, as n8n stored them. */
const countsIn = (execution: Json, names: string[]) =>
  Object.fromEntries(
    Object.entries(execution.data.resultData.runData as Record<string, Json[]>)
      .filter(([name]) => names.includes(name))
      .map(([name, runs]) => [name, (runs.at(-1)!.data?.main ?? []).map((items: unknown[] | null) => (items ?? []).length)]),
  );

let before: Awaited<ReturnType<typeof leftInN8n>>;
beforeAll(async () => {
  before = await leftInN8n();
});
afterAll(async () => {
  // Counted again after every try of this file, failed and cancelled ones included: nothing of them is left.
  expect(before).toEqual(NOTHING);
  expect(await leftInN8n()).toEqual(NOTHING);
});

describe('try_nodes answers what a saved workflow with the same nodes does', () => {
  it.each(Object.entries(CASES))('%s', async (_, tryCase) => {
    const { nodes, items, connections } = tryCase;
    const answer = await call('try_nodes', { nodes, items, ...(connections ? { connections } : {}) });
    tried.add(answer.cleanUp.workflow);
    const saved = await savedRun(tryCase);
    const names = nodes.map((n) => n.name);
    const failedRuns = Object.entries(saved.data.resultData.runData as Record<string, Json[]>).filter(([, runs]) => runs.at(-1)!.error);
    if (tryCase.outcome === 'error') {
      expect(saved.status).toBe('error');
      expect(failedRuns).toHaveLength(1);
      const [node, runs] = failedRuns[0]!;
      const { message, description, context } = runs.at(-1)!.error;
      expect(answer.output).toBeUndefined();
      expect(answer.failed).toMatchObject({ node, error: [message, description].filter(Boolean).join(': '), input: { items: items.length } });
      // The item it failed on, where n8n says which (the saved run's error names it by index too).
      if (typeof context?.itemIndex === 'number') expect(answer.failed.item).toEqual({ index: context.itemIndex, json: items[context.itemIndex] });
      else expect(answer.failed).not.toHaveProperty('item');
    } else {
      expect(saved.status).toBe('success');
      expect(answer.failed).toBeUndefined();
      expect(answer.output.node).toBe(names.at(-1));
      expect(answeredOutputs(answer.output)).toEqual(outputsIn(saved, names.at(-1)!));
    }
    // Per node, the items on each output n8n stored (labelled where a node has several).
    expect(Object.fromEntries(answer.nodes.map((s: Json) => [s.node, s.items ?? s.outputs.map((o: Json) => o.count)]))).toEqual(countsIn(saved, names));
    // Only the caller's nodes are named: never the tool's own.
    expect(JSON.stringify(answer)).not.toMatch(/Sample items/);
    // The throwaway workflow and its execution are gone.
    expect(answer.cleanUp).toMatchObject({ deleted: true, executions: [expect.any(String)] });
    await expect(n8n('GET', `/workflows/${answer.cleanUp.workflow}`)).rejects.toThrow(/404/);
    await expect(n8n('GET', `/executions/${answer.cleanUp.executions[0]}`)).rejects.toThrow(/404/);
  });

  it('names the outputs as n8n does: an IF’s true and false, a Filter’s kept and discarded items, a Switch’s renamed one', async () => {
    const names = async (title: string) =>
      (await call('try_nodes', { nodes: CASES[title]!.nodes, items: people })).output.outputs.map((o: Json) => [o.name, o.count]);
    expect(await names('IF: items on its true and false outputs')).toEqual([
      ['true', 3],
      ['false', 1],
    ]);
    expect(await names('Filter: kept and discarded items')).toEqual([
      ['Kept', 3],
      ['Discarded', 1],
    ]);
    expect(await names('Switch: rules to three outputs, one renamed')).toEqual([
      ['core', 3],
      ['1', 1],
      ['2', 0],
    ]);
  });

  it('labels every output in the per-node counts too, and says which of the caller’s nodes stopped a chain', async () => {
    const filter = CASES['Filter: kept and discarded items']!.nodes[0]!;
    const split = node('Split', 'splitOut', 1, { fieldToSplitOut: 'missing', options: {} });
    const limit = node('Limit', 'limit', 1, { maxItems: 1 });
    const labelled = await call('try_nodes', { nodes: [filter, limit], items: people });
    tried.add(labelled.cleanUp.workflow);
    expect(labelled.nodes.find((n: Json) => n.node === filter.name).outputs).toEqual([
      { name: 'Kept', count: 3 },
      { name: 'Discarded', count: 1 },
    ]);
    const stopped = await call('try_nodes', { nodes: [split, limit], items: people });
    tried.add(stopped.cleanUp.workflow);
    const saved = await savedRun({ nodes: [split, limit], items: people, outcome: 'output' });
    // n8n ran Split, which put out nothing, and not Limit.
    expect(countsIn(saved, ['Split', 'Limit'])).toEqual({ Split: [0] });
    expect(stopped.output).toEqual({ node: 'Limit', count: 0, items: [], note: 'No item reached "Limit": "Split" put out no items, so "Limit" did not run.' });
  });

  it('names the item a node failed on, by its index, where n8n says which; a Code node for each item in a task runner does not', async () => {
    const { nodes, items } = CASES['Edit Fields: an item without the field it reads']!;
    const answer = await call('try_nodes', { nodes, items });
    tried.add(answer.cleanUp.workflow);
    expect(answer.failed).toMatchObject({ node: 'Set', item: { index: 1, json: { name: 'no price' } }, input: { items: 2 } });
    expect(answer.failed.input).not.toHaveProperty('from');
    const code = CASES['Code: one that throws on an item without the field']!;
    const thrown = await call('try_nodes', { nodes: code.nodes, items: code.items });
    tried.add(thrown.cleanUp.workflow);
    const saved = await savedRun(code);
    const [, runs] = Object.entries(saved.data.resultData.runData as Record<string, Json[]>).find(([, r]) => r.at(-1)!.error)!;
    expect(runs.at(-1)!.error.context).toBeUndefined();
    expect(thrown.failed).not.toHaveProperty('item');
  });

  it('a boolean "is true" without singleValue: refused before it runs, failed by n8n in a saved workflow, run once autofixed', async () => {
    const paid = [{ paid: true }, { paid: false }];
    const isTrue = node('IF', 'if', 2.2, { conditions: condition('={{ $json.paid }}', 'true', '', 'boolean'), options: {} });
    const refused = await rawCall('try_nodes', { nodes: [isTrue], items: paid });
    expect(refused.isError).toBe(true);
    expect(refused.json.errors.map((f: Json) => f.code)).toEqual(['filter_single_value_missing']);

    const saved = await savedRun({ nodes: [isTrue], items: paid, outcome: 'error' });
    expect(saved.status).toBe('error');
    expect(saved.data.resultData.runData.IF.at(-1).error.message).toMatch(/^Wrong type: '' is a string but was expecting a boolean/);

    const { workflow } = await call('autofix_workflow', { workflow: { nodes: [isTrue], connections: {} } });
    const answer = await call('try_nodes', { nodes: workflow.nodes, items: paid });
    tried.add(answer.cleanUp.workflow);
    expect(answer.output.outputs.map((o: Json) => [o.name, o.items])).toEqual([
      ['true', [{ paid: true }]],
      ['false', [{ paid: false }]],
    ]);
  });

  it('answers a large output up to its bound, saying how many items it shows', async () => {
    const many = code('Many', 'return Array.from({ length: 2000 }, (_, i) => ({ json: { i, text: "x".repeat(100) } }));');
    const answer = await call('try_nodes', { nodes: [many] });
    tried.add(answer.cleanUp.workflow);
    const { output } = answer;
    expect(output.count).toBe(2000);
    expect(output.shown).toBe(output.items.length);
    expect(output.shown).toBeLessThan(2000);
    expect(JSON.stringify(output.items).length).toBeLessThanOrEqual(OUTPUT_CHARS + output.shown + 2);
    expect(output.items).toEqual(Array.from({ length: output.shown }, (_, i) => ({ i, text: 'x'.repeat(100) })));
    expect(output.cut).toMatch(/each output's "shown" says how many of its items it lists/);
  });
});

describe('try_nodes says where n8n cannot run the nodes', () => {
  it('a community node: refused before anything is made in n8n, as one this server cannot tell what it does (class host)', async () => {
    const refused = await rawCall('try_nodes', { nodes: [{ name: 'Community', type: 'n8n-nodes-community.thing', typeVersion: 1, parameters: {} }] });
    expect(refused.text).toMatch(
      /"Community" \(n8n-nodes-community\.thing\) is a community or custom node: .*class "host".*n8n did not create the throwaway workflow: nothing is left\./,
    );
  });
});

/**
 * Runs past waitSeconds, which n8n stops with a timer in its own process: the answer says which nodes
 * finished (the last one's items), which did not, and what n8n did, as the same nodes in a saved
 * workflow with the same time limit show it.
 */
describe('try_nodes says what became of a run n8n stopped', () => {
  const after = set('After', [assign('after', 'yes')]);
  /** The caller's nodes that ran in a saved workflow's execution, and n8n's record of the stop. */
  const stoppedIn = (execution: Json, names: string[]) => ({
    status: execution.status,
    ran: names.filter((name) => execution.data.resultData.runData[name]),
    error: execution.data.resultData.error?.name,
  });

  it('a node that keeps n8n itself busy past waitSeconds finishes, n8n stops the run only after it, and the answer gives its items', async () => {
    // An expression runs in n8n's own process, as a Code node does where n8n has no task runners.
    const busy = set('Busy', [assign('busy', '={{ (() => { const end = Date.now() + 2500; while (Date.now() < end) {} return $json.a; })() }}', 'number')]);
    const tryCase: Case = { nodes: [busy, after], items: [{ a: 1 }], outcome: 'output' };
    const health = healthLatencies();
    const answer = await call('try_nodes', { nodes: tryCase.nodes, items: tryCase.items, waitSeconds: 1 });
    const held = await health.stop();
    tried.add(answer.cleanUp.workflow);
    // n8n answered nothing, not even /healthz, while the node ran.
    expect(Math.max(...held)).toBeGreaterThan(1500);

    const saved = await savedRun(tryCase, { executionTimeout: 1 });
    expect(stoppedIn(saved, ['Busy', 'After'])).toEqual({ status: 'canceled', ran: ['Busy'], error: 'TimeoutExecutionCancelledError' });
    expect(answer.failed).toBeUndefined();
    expect(answer.stopped).toEqual({
      message: expect.stringMatching(
        /^The run passed its time limit \(waitSeconds: 1 s\) while "Busy" ran, and n8n stopped it only once "Busy" had finished, \d+\.\d s after the start\. .*"After" did not run\./,
      ),
      seconds: expect.any(Number),
      finished: ['Busy'],
      didNotRun: ['After'],
      output: { node: 'Busy', count: 1, items: outputsIn(saved, 'Busy')[0] },
    });
    expect(answer.stopped.output.items).toEqual([{ busy: 1 }]);
    expect(answer.stopped.seconds).toBeGreaterThanOrEqual(2.5);
    expect(answer.nodes).toEqual([expect.objectContaining({ node: 'Busy', status: 'success', items: [1] })]);
  });

  it('a busy Code node, which n8n runs in a task runner, is stopped at waitSeconds: it did not finish, nor did the nodes after it run', async () => {
    const busy = code('Busy', 'const end = Date.now() + 2500; while (Date.now() < end) {} return $input.all();');
    const tryCase: Case = { nodes: [busy, after], items: [{ a: 1 }], outcome: 'output' };
    const answer = await call('try_nodes', { nodes: tryCase.nodes, items: tryCase.items, waitSeconds: 1 });
    tried.add(answer.cleanUp.workflow);

    const saved = await savedRun(tryCase, { executionTimeout: 1 });
    expect(stoppedIn(saved, ['Busy', 'After'])).toMatchObject({ status: 'canceled', ran: [] });
    expect(answer.failed).toBeUndefined();
    expect(answer.stopped).toEqual({
      message: expect.stringMatching(
        /^n8n stopped the run at its time limit \(waitSeconds: 1 s\), \d+\.\d s after the start, while "Busy" was running: it did not finish\. "After" did not run\./,
      ),
      seconds: expect.any(Number),
      finished: [],
      running: 'Busy',
      didNotRun: ['After'],
    });
    expect(answer.stopped.seconds).toBeLessThan(2.5);
    expect(answer.nodes).toEqual([]);
    expect(answer.cleanUp).toMatchObject({ deleted: true });
  });
});

describe('nothing of a try is left in n8n', () => {
  it('when the call is cancelled mid-run: the clean-up still deletes the throwaway workflow and its execution', async () => {
    const slow = code('Slow', 'await new Promise((resolve) => setTimeout(resolve, 8000)); return $input.all();');
    const controller = new AbortController();
    const calling = rawCall('try_nodes', { nodes: [slow], waitSeconds: 30 }, controller.signal).catch((error: Error) => error);
    // The run is under way once n8n lists its execution as running.
    const running = await eventually(async () => {
      const left = await leftInN8n();
      return left.executions.length ? left : undefined;
    });
    running.workflows.forEach((id) => tried.add(id));
    controller.abort();
    expect(await calling).toBeInstanceOf(Error);
    await eventually(async () => ((await leftInN8n()).workflows.length === 0 ? true : undefined));
    expect(await leftInN8n()).toEqual(NOTHING);
  }, 60_000);

  it('n8n deletes a workflow’s executions with it, and lists running executions only when asked (what the fake n8n does)', async () => {
    const path = `contract-${crypto.randomUUID()}`;
    const { id } = await n8n('POST', '/workflows', {
      name: `${THROWAWAY_PREFIX}contract`,
      nodes: [webhookTrigger(path), { ...code('Slow', 'await new Promise((resolve) => setTimeout(resolve, 3000)); return $input.all();'), position: [200, 0] }],
      connections: { Hook: { main: [link('Slow')] } },
      settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
    });
    tried.add(id);
    await n8n('POST', `/workflows/${id}/activate`);
    await fetch(`${inject('realN8nUrl')}/webhook/${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const running = await eventually(async () => (await n8n('GET', `/executions?workflowId=${id}&status=running`)).data[0]);
    expect((await n8n('GET', `/executions?workflowId=${id}`)).data).toEqual([]);
    const finished = await eventually(async () => (await n8n('GET', `/executions?workflowId=${id}`)).data[0]);
    expect(finished).toMatchObject({ id: running.id, status: 'success' });
    await n8n('DELETE', `/workflows/${id}`);
    await expect(n8n('GET', `/executions/${running.id}`)).rejects.toThrow(/404/);
    expect(await leftInN8n()).toEqual(NOTHING);
  }, 60_000);
});
