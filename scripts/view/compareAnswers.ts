/**
 * Whether a client that declares no app support gets, byte for byte, the answers it got before the
 * workflow view: the same requests, in both protocol eras, against two servers (this checkout's and an
 * earlier one's, each under `wrangler dev`), their JSON-RPC answers compared as bytes (a session's id,
 * which differs by nature, set aside). Run once per change that touches what clients see:
 *
 *   npx tsx scripts/view/compareAnswers.ts --before http://127.0.0.1:8791 --after http://127.0.0.1:8792 --key n2f_…
 *
 * Prints each request with "same" or where the answers first differ; exits 1 on any difference. (Reading
 * the view's own resource is new, and open to any client: one that renders no apps is never shown it.)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { before: { type: 'string' }, after: { type: 'string' }, key: { type: 'string' } } });
if (!values.before || !values.after || !values.key) throw new Error('--before URL --after URL --key KEY');
const key = values.key;

const workflow = (name: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/workflows/${name}`, import.meta.url), 'utf8'));
const broken = workflow('05-if-v2-branches.json');
broken.nodes[1].typeVersion = 99;

/** The calls a client makes: lists, and tools whose answers the view draws or that the catalog answers. */
const CALLS: [string, Record<string, unknown>][] = [
  ['tools/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['prompts/list', {}],
  ['tools/call', { name: 'validate_workflow', arguments: { workflow: workflow('05-if-v2-branches.json') } }],
  ['tools/call', { name: 'validate_workflow', arguments: { workflow: broken } }],
  ['tools/call', { name: 'autofix_workflow', arguments: { workflow: broken } }],
  ['tools/call', { name: 'get_node_details', arguments: { nodes: [{ node_type: 'ACTION_NODE', subtype: 'n8n-nodes-base.if' }] } }],
  ['tools/call', { name: 'search_nodes', arguments: { query: 'send a slack message' } }],
  ['tools/call', { name: 'search_templates', arguments: { query: 'telegram bot' } }],
];

async function post(base: string, body: unknown, headers: Record<string, string>): Promise<{ text: string; session: string | null }> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const raw = await response.text();
  // An SSE answer: its data lines; a JSON one as it is.
  const text =
    raw.startsWith('event:') || raw.startsWith('data:') || raw.startsWith('id:')
      ? raw
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n')
      : raw;
  return { text: `${response.status} ${text}`, session: response.headers.get('mcp-session-id') };
}

/** Every answer of one client's run against one server, in order. */
async function run(base: string, era: '2025' | '2026'): Promise<string[]> {
  const answers: string[] = [];
  if (era === '2025') {
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'compare', version: '1' } };
    const opened = await post(base, { jsonrpc: '2.0', id: 0, method: 'initialize', params: init }, {});
    answers.push(opened.text);
    const session = { 'mcp-session-id': opened.session!, 'mcp-protocol-version': '2025-11-25' };
    await post(base, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    for (const [i, [method, params]] of CALLS.entries()) answers.push((await post(base, { jsonrpc: '2.0', id: i + 1, method, params }, session)).text);
    return answers;
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const discover = await post(
    base,
    { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: meta } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
  );
  answers.push(discover.text);
  for (const [i, [method, params]] of CALLS.entries()) {
    const name = (params.name ?? params.uri) as string | undefined;
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
    answers.push((await post(base, { jsonrpc: '2.0', id: i + 1, method, params: { ...params, _meta: meta } }, headers)).text);
  }
  return answers;
}

let differences = 0;
for (const era of ['2025', '2026'] as const) {
  const [before, after] = await Promise.all([run(values.before, era), run(values.after, era)]);
  const names = [
    era === '2025' ? 'initialize' : 'server/discover',
    ...CALLS.map(([method, params]) => `${method} ${typeof params.name === 'string' ? params.name : ''}`.trim()),
  ];
  names.forEach((name, i) => {
    const a = before[i]!;
    const b = after[i]!;
    if (a === b) return console.log(`${era} ${name}: same (${Buffer.byteLength(a).toLocaleString('en-US')} bytes)`);
    differences++;
    let at = 0;
    while (a[at] === b[at]) at++;
    console.log(
      `${era} ${name}: DIFFERENT at byte ${at}:\n  before …${a.slice(Math.max(0, at - 80), at + 120)}\n  after  …${b.slice(Math.max(0, at - 80), at + 120)}`,
    );
  });
}
console.log(differences === 0 ? 'Every answer is the same, byte for byte.' : `${differences} answers differ.`);
process.exitCode = differences === 0 ? 0 : 1;
