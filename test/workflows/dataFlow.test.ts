import { describe, expect, it } from 'vitest';
import { fieldReads } from '../../src/workflows/dataFlow';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

const webhook = node('Webhook', 'webhook', 2.1, { path: 'signup', httpMethod: 'POST' }, { webhookId: 'a6f0c0e2-0000-4000-8000-000000000002' });
const slack = (name: string, text: string) =>
  node(
    name,
    'slack',
    2.3,
    { select: 'channel', channelId: { __rl: true, mode: 'id', value: 'C0123' }, text },
    { credentials: { slackApi: { id: '2', name: 'Slack' } } },
  );
const findings = (w: unknown) => validateWorkflow(w, n8nCatalog).errors.filter((e) => e.code === 'field_not_in_input');

describe('data flow', () => {
  it('reads the fields expressions take from their input and from named nodes, not in comments, strings or method calls', () => {
    const reads = fieldReads(
      `$json.email + $json["full name"] + $json?.a + $input.first().json.b + $('Web hook').item.json.c + $node["N"].json['d'] + $json.keys() + '$json.e' /* $json.f */ + x.$json.g`,
    );
    expect(reads.map((r) => [r.node, r.field])).toEqual([
      [null, 'email'],
      [null, 'full name'],
      [null, 'a'],
      [null, 'b'],
      ['Web hook', 'c'],
      ['N', 'd'],
    ]);
  });

  it('finds $json.email right after a Webhook, and $("Webhook").item.json.email anywhere, naming $json.body.email', () => {
    const w = {
      nodes: [webhook, slack('Tell', '=New: {{ $json.email }} {{ $json.body.name }}'), slack('Later', "={{ $('Webhook').item.json.email }}")],
      connections: connect(['Webhook', 'Tell'], ['Tell', 'Later']),
    };
    (w.nodes[2]!.parameters as Record<string, unknown>).text = "={{ $('Webhook').item.json.email }} {{ $('Webhook').item.json.email }}";
    const errors = findings(w);
    expect(errors.map((e) => [e.node, e.path])).toEqual([
      ['Tell', 'parameters.text'],
      ['Later', 'parameters.text'],
    ]);
    expect(errors[0]!.message).toContain('$json.body.email');
    expect(errors[0]!.message).toContain('"headers", "params", "query", "body"');
    expect(errors[1]!.message).toContain("$('Webhook').item.json.body.email");
    // Written as n8n receives it: nothing to say.
    w.nodes[1] = slack('Tell', '={{ $json.body.email }} {{ $json.headers["user-agent"] }} {{ $json.query.ref }}');
    w.nodes[2] = slack('Later', "={{ $('Webhook').item.json.body.email }}");
    expect(findings(w)).toEqual([]);
  });

  it("reads a Code node's JavaScript as expressions are read: $input.first().json and $('Node') against what the node before puts out", () => {
    const code = (jsCode: string, language?: string) => node('Count', 'code', 2, { jsCode, ...(language ? { language } : {}) });
    const workflow = (jsCode: string, language?: string) => ({ nodes: [webhook, code(jsCode, language)], connections: connect(['Webhook', 'Count']) });
    const errors = findings(
      workflow("const ids = $input.first().json.ids; // $json.note in a comment\nreturn [{ json: { n: $('Webhook').first().json.email } }];"),
    );
    expect(errors.map((e) => [e.node, e.path])).toEqual([
      ['Count', 'parameters.jsCode'],
      ['Count', 'parameters.jsCode'],
    ]);
    expect(errors[0]!.message).toContain('$input.first().json.body.ids');
    expect(findings(workflow('return [{ json: { ids: $input.first().json.body.ids } }];'))).toEqual([]);
    // A read with a fallback expects the field may be absent.
    expect(findings(workflow("const dir = $input.first().json.outputDir || '/tmp'; if (!$input.first().json.name) return [];"))).toEqual([]);
    // A field the code sets on the items is there to read afterwards.
    expect(findings(workflow("$input.item.json.size = 'S';\nif ($input.item.json.size) $input.item.json['tier'] ??= 1;\nreturn $input.item;"))).toEqual([]);
    // Python reads items otherwise: not judged by these rules.
    expect(findings(workflow('return [{"json": {"n": _input.first().json.ids}}]', 'pythonNative'))).toEqual([]);
  });

  it('follows shapes through IF and Edit Fields, says nothing where a shape is unknown (Code) or open', () => {
    const w = {
      nodes: [
        webhook,
        node('Big?', 'if', 2.3, {
          conditions: {
            options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
            conditions: [{ id: 'c', leftValue: '={{ $json.total }}', rightValue: 1, operator: { type: 'number', operation: 'gt' } }],
            combinator: 'and',
          },
        }),
        node('Pick', 'set', 3.4, { assignments: { assignments: [{ id: 'a', name: 'Email', value: '={{ $json.body.email }}', type: 'string' }] } }),
        slack('Tell', '={{ $json.email }}'),
        node('Code', 'code', 2, { jsCode: 'return [{ json: { email: 1 } }]' }),
        slack('After code', '={{ $json.email }}'),
        node('Keep', 'set', 3.4, { includeOtherFields: true, assignments: { assignments: [{ id: 'b', name: 'x', value: '1', type: 'string' }] } }),
        slack('After keep', '={{ $json.email }} {{ $json.Email }}'),
      ],
      connections: connect(
        ['Webhook', 'Big?'],
        ['Big?', 'Pick'],
        ['Pick', 'Tell'],
        ['Webhook', 'Code'],
        ['Code', 'After code'],
        ['Code', 'Keep'],
        ['Keep', 'After keep'],
      ),
    };
    const errors = findings(w);
    expect(errors.map((e) => e.node)).toEqual(['Big?', 'Tell']);
    expect(errors[0]!.message).toContain('$json.body.total');
    expect(errors[1]!.message).toContain('"Pick"');
    expect(errors[1]!.message).toContain('Did you mean $json.Email?');
  });

  it('names where a field a node does not pass on can be read: the node before it, by name', () => {
    const w = {
      nodes: [
        webhook,
        node('Pick', 'set', 3.4, { assignments: { assignments: [{ id: 'a', name: 'email', value: '={{ $json.body.email }}', type: 'string' }] } }),
        slack('Tell', '={{ $json.email }} {{ $json.body.name }}'),
      ],
      connections: connect(['Webhook', 'Pick'], ['Pick', 'Tell']),
    };
    const [error, ...more] = findings(w);
    expect(more).toEqual([]);
    expect(error!.message).toContain('reads $json.body');
    expect(error!.message).toContain('"Pick" does not pass on its input\'s fields: read it from "Webhook" ($("Webhook").item.json.body)');
  });

  it('takes the shape a node was seen to put out on a real n8n: Crypto keeps the input and adds the field it is told', () => {
    const crypto = (options: Record<string, unknown>) =>
      node('Hash', 'crypto', 1, { action: 'hash', type: 'SHA256', value: '={{ $json.body.text }}', dataPropertyName: 'digest', ...options });
    const w = (hash: ReturnType<typeof crypto>) => ({
      nodes: [webhook, hash, slack('Tell', '={{ $json.digest }} {{ $json.body.text }} {{ $json.data }}')],
      connections: connect(['Webhook', 'Hash'], ['Hash', 'Tell']),
    });
    const errors = findings(w(crypto({})));
    expect(errors.map((e) => e.message.match(/reads (\S+)/)![1])).toEqual(['$json.data,']);
    // Hashing a file: the binary run was not observed, so nothing is said.
    expect(findings(w(crypto({ binaryData: true })))).toEqual([]);
  });

  it('reads a node fed by several: an error only when none of them has the field', () => {
    const w = {
      nodes: [webhook, node('Manual', 'manualTrigger', 1), slack('Tell', '={{ $json.body }} {{ $json.nowhere }}')],
      connections: connect(['Webhook', 'Tell'], ['Manual', 'Tell']),
    };
    expect(findings(w).map((e) => e.message.match(/reads (\S+),/)![1])).toEqual(['$json.nowhere']);
  });

  it("takes a node's pinned data, which its test runs use, as unknown when it holds other fields than the node's", () => {
    const w = {
      nodes: [node('Manual', 'manualTrigger', 1), slack('Tell', '={{ $json.name }}')],
      connections: connect(['Manual', 'Tell']),
      pinData: {} as Record<string, unknown>,
    };
    expect(findings(w).map((e) => e.message)).toEqual([expect.stringContaining('"Manual" sends have no fields at all')]);
    w.pinData = { Manual: [{ json: { name: 'Ada' } }] };
    expect(findings(w)).toEqual([]);
  });

  it("keeps the node's shape when its pinned items are of that shape (a Webhook's pinned request): both kinds of run lack the field", () => {
    const w = {
      nodes: [webhook, slack('Tell', '={{ $json.email }}')],
      connections: connect(['Webhook', 'Tell']),
      pinData: { Webhook: [{ json: { body: { email: 'a@example.com' }, headers: {} } }] },
    };
    expect(findings(w).map((e) => e.message)).toEqual([expect.stringContaining('$json.body.email')]);
    // Items n8n stored before the `json` wrapper are read the same.
    expect(findings({ ...w, pinData: { Webhook: [{ body: { email: 'a@example.com' } }] } })).toHaveLength(1);
  });
});
