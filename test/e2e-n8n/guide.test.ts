import { describe, expect, it } from 'vitest';
import { connectedClient, type Json } from './client';
import { webhookTrigger } from '../support/workflows';

/**
 * get_guide against the real n8n: the time zone it names is the one `$now` has in that workflow's runs,
 * the zone it says try_nodes shows is the one a workflow without a setting runs in, and the guide's own
 * expressions run on n8n as it says (an arrow function, an IIFE, `.first()` on items and on lists), a
 * statement failing as it says.
 */
const { ok: call, call: rawCall } = connectedClient('e2e-real-n8n-guide');

/** The guide's text, as get_guide answers it. */
const guideText = async (args: Json = {}): Promise<string> => {
  const answer = await rawCall('get_guide', args);
  expect(answer.isError, answer.text).toBe(false);
  return answer.text;
};

const stamp = Date.now();
const assign = (name: string, value: string) => ({ id: name, name, value, type: 'string' });
const set = (name: string, assignments: Json[]) => ({
  name,
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  parameters: { mode: 'manual', assignments: { assignments }, options: { ignoreConversionErrors: true } },
});
const zoneFields = set('Zone', [assign('zone', '={{ $now.zoneName }}'), assign('parsed', "={{ DateTime.fromISO('2024-05-01T10:00').toISO() }}")]);

/** The Webhook every workflow here starts with, at its own path. */
const hook = (path: string, responseMode: string) => webhookTrigger(path, 'Hook', { responseMode, options: {} });

/** A workflow answering its Zone node's fields: Hook (answers with the last node's first item) → Zone. */
const zoneWorkflow = (label: string, settings: Json) => ({
  name: `Guide zone ${label} ${stamp}`,
  settings: { executionOrder: 'v1', ...settings },
  nodes: [hook(`guide-${label}-${stamp}`, 'lastNode'), { ...zoneFields, position: [220, 0] }],
  connections: { Hook: { main: [[{ node: 'Zone', type: 'main', index: 0 }]] } },
});

/** The guide's parameter values (`"=…"` in backticks), as an agent would copy them. */
const examplesIn = (guide: string) => [...guide.matchAll(/`"(=[^`]*)"`/g)].map((m) => m[1]!);

describe('get_guide, on a real n8n', () => {
  it('names the time zone a workflow runs in: the one $now has in its runs; without one, the zone try_nodes shows', async () => {
    const tokyo = await call('create_workflow', { workflow: zoneWorkflow('tokyo', { timezone: 'Asia/Tokyo' }) });
    const plain = await call('create_workflow', { workflow: zoneWorkflow('plain', {}) });
    try {
      const pinned = await guideText({ workflowId: tokyo.id });
      expect(pinned).toContain(`- Workflow "${tokyo.name}" (${tokyo.id}) runs in Asia/Tokyo: its settings.timezone.`);
      const ran = await call('test_workflow', { id: tokyo.id });
      expect(ran.trigger.response).toEqual({ zone: 'Asia/Tokyo', parsed: '2024-05-01T10:00:00.000+09:00' });

      const unset = await guideText({ workflowId: plain.id });
      expect(unset).toContain(`- Workflow "${plain.name}" (${plain.id}) sets no time zone: it runs in its n8n's default, unknown here.`);
      expect(unset).toContain('try_nodes with an Edit Fields value `"={{ $now.zoneName }}"` answers it');
      const instanceDefault = (await call('test_workflow', { id: plain.id })).trigger.response.zone;
      expect(instanceDefault).toEqual(expect.any(String));
      const tried = await call('try_nodes', { nodes: [zoneFields] });
      expect(tried.output.items[0].zone).toBe(instanceDefault);
    } finally {
      await call('delete_workflow', { id: tokyo.id });
      await call('delete_workflow', { id: plain.id });
    }
  }, 120_000);

  it('says what a Respond to Webhook answers, as n8n answers it: the body as it evaluates, the first item, every item', async () => {
    const guide = await guideText();
    expect(guide).toContain('nothing added or wrapped, empty lists kept');
    const respondWorkflow = (respondWith: string, responseBody?: string) => ({
      name: `Guide respond ${respondWith} ${stamp}`,
      settings: { executionOrder: 'v1' },
      nodes: [
        hook(`guide-respond-${respondWith}-${stamp}`, 'responseNode'),
        { name: 'Rows', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [220, 0], parameters: { fieldToSplitOut: 'body.rows', options: {} } },
        {
          name: 'Answer',
          type: 'n8n-nodes-base.respondToWebhook',
          typeVersion: 1.5,
          position: [440, 0],
          parameters: { respondWith, ...(responseBody ? { responseBody } : {}), options: {} },
        },
      ],
      connections: { Hook: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
    });
    const rows = [
      { n: 1, tags: [] },
      { n: 2, tags: ['x'] },
    ];
    const answers: Record<string, unknown> = {};
    for (const [respondWith, responseBody] of [
      ['json', '={{ { first: $json.n, tags: $json.tags, none: [] } }}'],
      ['firstIncomingItem'],
      ['allIncomingItems'],
    ] as const) {
      const made = await call('create_workflow', { workflow: respondWorkflow(respondWith, responseBody) });
      try {
        const ran = await call('test_workflow', { id: made.id, payload: { rows } });
        expect(ran.trigger.status).toBe(200);
        answers[respondWith] = ran.trigger.response;
      } finally {
        await call('delete_workflow', { id: made.id });
      }
    }
    expect(answers).toEqual({ json: { first: 1, tags: [], none: [] }, firstIncomingItem: rows[0], allIncomingItems: rows });
  }, 120_000);

  it("formats dates with the Luxon tokens and zone calls the guide names, as n8n's expressions run them", async () => {
    const guide = await guideText();
    for (const token of ['`HH` hour (00–23)', '`cccc` weekday name', '`ZZ` offset as `+05:30`', ".setZone('Asia/Kolkata')", ".setLocale('en')"])
      expect(guide).toContain(token);
    const tried = await call('try_nodes', {
      nodes: [
        set('Dates', [
          assign('local', "={{ DateTime.fromISO($json.at).setZone('Asia/Kolkata').setLocale('en').toFormat('yyyy-MM-dd HH:mm:ss hh a cccc ZZ z') }}"),
        ]),
      ],
      items: [{ at: '2024-06-30T23:15:00Z' }],
    });
    expect(tried.output.items).toEqual([{ local: '2024-07-01 04:45:00 04 AM Monday +05:30 Asia/Kolkata' }]);
  }, 120_000);

  it('shows expressions that n8n runs as the guide says, and a statement that n8n refuses as it says', async () => {
    const guide = await guideText();
    const examples = examplesIn(guide);
    const body = {
      email: 'ada@example.com',
      id: 7,
      total: 250,
      name: 'Ada',
      n: 4,
      items: [
        { price: 2, qty: 3 },
        { price: 5, qty: 1 },
      ],
    };
    const tried = await call('try_nodes', {
      nodes: [
        set(
          'Examples',
          examples.map((value, i) => assign(`e${i}`, value)),
        ),
      ],
      items: [{ body }],
    });
    expect(tried.failed).toBeUndefined();
    const values = Object.fromEntries(examples.map((example, i) => [example, tried.output.items[0][`e${i}`]]));
    expect(values).toMatchObject({
      '={{ $json.body.email }}': 'ada@example.com',
      '=Order {{ $json.body.id }} received': 'Order 7 received',
      '={{ $json.body.total * 1.2 }}': '300',
      '={{ $json.body.items.map(i => i.price * i.qty).reduce((a, b) => a + b, 0) }}': '11',
      '={{ (() => { const x = $json.body.n * 2; return x + 1 })() }}': '9',
      "={{ { greeting: 'Hi ' + $json.body.name } }}": JSON.stringify({ greeting: 'Hi Ada' }),
      '={{ [...new Set($json.body.items.map(i => i.qty))].length }}': '2',
      "={{ typeof $json.body.n === 'number' ? Math.max(...$json.body.items.map(i => i.price)) : null }}": '5',
      "={{ [...new Map([['a', 1]]).entries()].map(([k, v]) => v).length }}": '1',
    });
    // .keys() and .values() are n8n's own on a Map or a Set: nothing, as the guide warns.
    const own = await call('try_nodes', {
      nodes: [set('Own', [assign('values', "={{ [...new Map([['a', 1]]).values()].length }}"), assign('keys', '={{ [...new Set([1, 2]).keys()].length }}')])],
      items: [{ body }],
    });
    expect(guide).toContain('on a Map or a Set they give `[]`');
    expect(own.output.items).toEqual([{ values: '0', keys: '0' }]);
    // .first() on items is an item (read .json); on a plain list it is the element itself.
    const lists = await call('try_nodes', {
      nodes: [set('Lists', [assign('item', '={{ $input.first().json.body.id }}'), assign('element', '={{ $json.body.items.first().price }}')])],
      items: [{ body }],
    });
    expect(lists.output.items).toEqual([{ item: '7', element: '2' }]);
    // No statements inside {{ }}: n8n fails the node, in the words the guide quotes.
    const statement = await call('try_nodes', { nodes: [set('Statement', [assign('x', '={{ const x = 1; x }}')])], items: [{ body }] });
    expect(guide).toContain('n8n fails the node: "invalid syntax"');
    expect(statement.failed).toMatchObject({ node: 'Statement', error: expect.stringContaining('invalid syntax') });
  }, 120_000);
});
