/**
 * `npm run hostile`: the attacks of issue 29 (with the lowest scope there is, `nodes:read`) and of
 * issue 39 (scripts/hostile/n8nAttacks.ts: each with the lowest scope that once was enough, against a
 * real n8n 1.123.81 started here, installed into .n8n/ the first time), tried as an attacker would
 * against `npm run dev`, each answered "refused" or "reproduced". Prints a table and writes
 * bench/results/hostile.json (or `--out FILE`). `--url URL --key KEY` aims at a server already running; add
 * `--state-dir DIR --n8n-url URL --n8n-key KEY` (its local state, the n8n it drives) for issue 39's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { generateApiKey, newKeyRecord, sha256Hex } from '../../src/auth/apiKeys.ts';
import { parseScopes } from '../../src/auth/scopes.ts';
import { putKey } from '../keys/store.ts';
import { parseSse } from '../lib/sseFrame.ts';
import { startWranglerDev } from '../lib/wranglerDev.ts';
import { startRealN8n } from '../n8n/realN8n.ts';
import { arg, Client, resultOf, within, type Outcome } from './client.ts';
import { n8nAttacks } from './n8nAttacks.ts';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;

const node = (name: string, type = 'n8n-nodes-base.noOp', parameters: Record<string, unknown> = {}) => ({
  name,
  type,
  typeVersion: 1,
  position: [0, 0],
  parameters,
});

async function pollution(c: Client): Promise<Outcome[]> {
  const session = await c.session();
  // A node named __proto__, and connections under a name that autofix resolves to it by case.
  const workflow = `{"nodes":[${JSON.stringify(node('__proto__'))},${JSON.stringify(node('Start', 'n8n-nodes-base.manualTrigger'))}],"connections":{"__PROTO__":{"OPERATOR_PASSWORD":[["hunter2"]],"polluted":[[]]}}}`;
  const answer = await c.post(
    session,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"autofix_workflow","arguments":{"workflow":${workflow}}}}`,
    20_000,
  );
  const serves = await c.serves();
  return [
    {
      finding: '1 prototype pollution',
      attack: 'autofix_workflow: node "__proto__", connections under "__PROTO__" with the keys OPERATOR_PASSWORD and polluted',
      refused: answer !== null && answer.status === 200 && serves === 'initialize 200, landing page 200',
      detail: `autofix answered ${answer ? `${answer.status} in ${answer.ms} ms` : 'nothing in 20 s'}; then ${serves}`,
    },
  ];
}

async function answerSize(c: Client): Promise<Outcome[]> {
  const session = await c.session();
  const out: Outcome[] = [];
  // A long-named node with many connections to a missing node: each finding repeats the long name. The
  // first as the attack was reported; the second within the workflow tools' limits of today.
  for (const [length, count] of [
    [20_000, 3_000],
    [1_000, 4_900],
  ] as const) {
    const long = 'L'.repeat(length);
    const targets = Array.from({ length: count }, () => ({ node: 'x', type: 'main', index: 0 }));
    const workflow = {
      nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node(long)],
      connections: { Start: { main: [[{ node: long, type: 'main', index: 0 }]] }, [long]: { main: [targets] } },
    };
    const size = JSON.stringify(workflow).length;
    for (const tool of ['validate_workflow', 'autofix_workflow']) {
      const answer = await c.callTool(session, tool, { workflow }, 60_000);
      const bytes = answer?.text.length ?? 0;
      const refusal = answer && resultOf(answer.text)?.isError ? `: ${resultOf(answer.text)?.content?.[0]?.text.slice(0, 120)}` : '';
      out.push({
        finding: '2 answer size',
        attack: `${tool}: a ${mb(size)} workflow, a ${length.toLocaleString('en-US')}-character node name with ${count.toLocaleString('en-US')} connections to a missing node`,
        refused: answer !== null && bytes < 4 * size + 1024 * 1024 && !answer.text.includes('Invalid string length'),
        detail: answer
          ? `${answer.status}, a ${mb(bytes)} answer (${(bytes / size).toFixed(1)}× the workflow) in ${answer.ms} ms${refusal}`
          : 'no answer in 60 s',
      });
    }
  }
  return out;
}

async function cpu(c: Client): Promise<Outcome[]> {
  const session = await c.session();
  const out: Outcome[] = [];
  const backtracking = `${'{{'.repeat(8_000)}${'$json'.repeat(4_000)}`;
  const attacks = [
    {
      name: `validate_workflow: a node whose parameter holds ${Math.round(backtracking.length / 1000)} KB of "{{" and "$json", never closed`,
      tool: 'validate_workflow',
      workflow: { nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node('Set', 'n8n-nodes-base.noOp', { text: backtracking })], connections: {} },
    },
    {
      name: 'autofix_workflow: the same',
      tool: 'autofix_workflow',
      workflow: { nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node('Set', 'n8n-nodes-base.noOp', { text: backtracking })], connections: {} },
    },
    {
      name: 'validate_workflow: 24,000 nodes in a chain, connections listed from its end',
      tool: 'validate_workflow',
      workflow: {
        nodes: Array.from({ length: 24_000 }, (_, i) => ({
          name: `n${i}`,
          type: i === 0 ? 'n8n-nodes-base.manualTrigger' : 'n8n-nodes-base.noOp',
          typeVersion: 1,
          position: [0, 0],
        })),
        // Listed from the end of the chain: a pass over the connections reaches one more node.
        connections: Object.fromEntries(
          Array.from({ length: 23_999 }, (_, i) => [`n${23_998 - i}`, { main: [[{ node: `n${23_999 - i}`, type: 'main', index: 0 }]] }]),
        ),
      },
    },
  ];
  for (const attack of attacks) {
    // /health, asked while the call runs, waits as long as the isolate is held.
    const health = (async () => {
      await new Promise((r) => setTimeout(r, 200));
      return within(60_000, () => fetch(`${c.url}/health`));
    })();
    const answer = await c.callTool(session, attack.tool, { workflow: attack.workflow }, 60_000);
    const waited = await health;
    const result = answer && resultOf(answer.text);
    out.push({
      finding: '3 CPU per call',
      attack: attack.name,
      refused: answer !== null && answer.ms < 2_000 && (waited?.ms ?? Infinity) < 2_000,
      detail: answer
        ? `answered ${answer.status} in ${answer.ms} ms: ${result?.content?.[0]?.text.slice(0, 160) ?? answer.text.slice(0, 160)}; /health took ${waited?.ms ?? '>60000'} ms`
        : 'no answer in 60 s',
    });
  }
  return out;
}

async function messagesLimit(c: Client): Promise<Outcome[]> {
  const out: Outcome[] = [];
  // One POST /messages carrying 700 calls, against 600 a minute.
  const controller = new AbortController();
  const stream = await fetch(`${c.url}/sse`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${c.key}` }, signal: controller.signal });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (ms: number) => {
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += value;
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  const endpointOf = () => parseSse(buffer).find((event) => event.event === 'endpoint')?.data;
  while (!endpointOf()) if (!(await next(10_000))) break;
  const endpoint = endpointOf();
  let answered = 0;
  let status = '';
  if (endpoint) {
    const post = (body: unknown) =>
      fetch(new URL(endpoint, c.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${c.key}` },
        body: JSON.stringify(body),
      });
    await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
    });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // In batches of 100 (what /mcp takes in one), one after another, within one window of the limiter.
    await withinOneWindow();
    const statuses: number[] = [];
    for (let b = 0; b < 7; b++) {
      const batch = Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: 100 + b * 100 + i,
        method: 'tools/call',
        params: { name: 'server_info', arguments: {} },
      }));
      const response = await post(batch);
      statuses.push(response.status);
      await response.text();
    }
    status = statuses.join(' ');
    const results = () =>
      parseSse(buffer)
        .filter((event) => event.data.startsWith('{'))
        .map((event) => JSON.parse(event.data) as { id?: number; result?: unknown })
        .filter((m) => typeof m.id === 'number' && m.id >= 100 && m.result !== undefined).length;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && results() < 700) if (!(await next(2_000))) break;
    answered = results();
  }
  controller.abort();
  out.push({
    finding: '5 rate limits',
    attack: '7 POST /messages of 100 tools/call each (limit 600 a minute)',
    refused: answered <= 600,
    detail: `the POSTs answered ${status}; ${answered} calls answered with a result`,
  });

  return out;
}

/**
 * The rate limiters count in fixed windows aligned to the clock's minutes (Cloudflare's binding, and
 * miniflare's in `wrangler dev`): a burst that straddles the turn of a minute gets two budgets, and an
 * attack the limits do refuse would pass. A burst starts with at least 20 s of its window left.
 */
async function withinOneWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

async function consentGuesses(c: Client): Promise<Outcome[]> {
  const out: Outcome[] = [];
  // Consent guesses with a new CF-Connecting-IP each time.
  const registration = (await (
    await fetch(`${c.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'guesser', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    })
  )
    .json()
    .catch(() => ({}))) as { client_id?: string };
  let guesses = 0;
  let limitedGuesses = 0;
  if (registration.client_id) {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registration.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
    });
    await withinOneWindow();
    for (let i = 0; i < 20; i++) {
      const page = await fetch(`${c.url}/authorize?${query}`);
      const html = await page.text();
      const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
      const cookie = page.headers
        .getSetCookie()
        .map((v) => v.split(';')[0])
        .join('; ');
      if (!handle) break;
      const form = new URLSearchParams({ handle, decision: 'approve', credential: `guess-${i}` });
      const response = await fetch(`${c.url}/authorize?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'cf-connecting-ip': `203.0.113.${i}` },
        body: form,
        redirect: 'manual',
      });
      await response.text();
      guesses++;
      if (response.status === 429) limitedGuesses++;
    }
  }
  out.push({
    finding: '5 rate limits',
    attack: '20 wrong consent credentials, each with another CF-Connecting-IP (limit 10 a minute per address)',
    refused: limitedGuesses > 0,
    detail: `${guesses} tried, ${limitedGuesses} answered 429`,
  });
  return out;
}

async function oauthFlood(c: Client): Promise<Outcome[]> {
  const out: Outcome[] = [];
  // OAuth registration and tokens, 60 each from one address.
  for (const [path, body, type] of [
    [
      '/oauth/register',
      JSON.stringify({ client_name: 'flood', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
      'application/json',
    ],
    ['/oauth/token', 'grant_type=authorization_code&code=x:y:z&client_id=nope&code_verifier=v', 'application/x-www-form-urlencoded'],
  ] as const) {
    let limited = 0;
    await withinOneWindow();
    for (let i = 0; i < 60; i++) {
      const response = await fetch(`${c.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
      await response.text();
      if (response.status === 429) limited++;
    }
    out.push({ finding: '5 rate limits', attack: `60 POST ${path} from one address`, refused: limited > 0, detail: `${limited} of 60 answered 429` });
  }

  return out;
}

async function lowFindings(c: Client): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const session = await c.session();
  const batch = [
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'server_info', arguments: {} } },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
  ];
  const cancelled = await c.post(session, batch, 10_000);
  out.push({
    finding: '8 batch',
    attack: 'a batch holding a call and its own cancellation',
    refused: cancelled !== null,
    detail: cancelled ? `answered ${cancelled.status} in ${cancelled.ms} ms` : 'no answer in 10 s',
  });
  const ping = await c.post(
    session,
    [
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } },
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ],
    10_000,
  );
  out.push({
    finding: '8 batch',
    attack: 'a batch holding a ping after its own cancellation (found by the batch fuzzer)',
    refused: ping !== null,
    detail: ping ? `answered ${ping.status} in ${ping.ms} ms` : 'no answer in 10 s',
  });

  const depth = 4_000;
  const deep = await c.post(
    session,
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"server_info","arguments":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
    20_000,
  );
  out.push({
    finding: '8 nesting',
    attack: `${depth} levels of JSON nesting`,
    refused: deep?.status === 400,
    detail: deep ? `${deep.status}: ${deep.text.slice(0, 140)}` : 'no answer',
  });

  const completion = await c.post(session, {
    jsonrpc: '2.0',
    id: 3,
    method: 'completion/complete',
    params: {
      ref: { type: 'ref/resource', uri: 'node-spec://{node_type}/{+subtype}' },
      argument: { name: 'subtype', value: 'a' },
      context: { arguments: { node_type: '__proto__' } },
    },
  });
  const completionError = completion?.text.includes('"error"');
  out.push({
    finding: '8 completions',
    attack: 'completion/complete with node_type "__proto__"',
    refused: completion?.status === 200 && !completionError,
    detail: completion ? completion.text.slice(0, 160) : 'no answer',
  });

  const served = new URL(c.url);
  const metadata = await withHost(`${c.url}/.well-known/oauth-authorization-server`, `${served.hostname}:31337`);
  const issuer = /"issuer":"([^"]+)"/.exec(metadata.text)?.[1];
  out.push({
    finding: '8 host reflection',
    attack: 'OAuth metadata asked with a Host header naming another port',
    refused: !issuer?.includes('31337'),
    detail: `${metadata.status}, issuer ${issuer ?? 'none'}`,
  });
  return out;
}

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function withHost(url: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port, pathname } = new URL(url);
    const request = httpRequest({ host: hostname, port, path: pathname, headers: { host } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function main(): Promise<void> {
  const given = arg('--url');
  // The n8n the server drives, for issue 39's attacks: a real one started here, or the one `--url`'s server drives.
  const n8n = given ? undefined : await startRealN8n();
  const n8nAccess = n8n ? { url: n8n.url, apiKey: n8n.apiKey } : arg('--n8n-url') ? { url: arg('--n8n-url')!, apiKey: arg('--n8n-key')! } : undefined;
  // A caller may keep 8 MB of versions here (128 by default), so that the history attack reaches the bound in a dozen changes.
  const server = given ? undefined : await startWranglerDev({ vars: { N8N_API_URL: n8n!.url, N8N_API_KEY: n8n!.apiKey, HISTORY_CALLER_MB: '8' } });
  const url = given ?? server!.url;
  const stateDir = arg('--state-dir') ?? server?.stateDir;
  // A key of its own for each family, so one family's requests do not use up another's rate limit.
  const newKey = async (scopes = 'nodes:read') => {
    if (!stateDir) return arg('--key')!;
    const key = generateApiKey();
    putKey(newKeyRecord(await sha256Hex(key), 'hostile attacker', parseScopes(scopes)), ['--local', '--persist-to', stateDir]);
    return key;
  };
  const outcomes: Outcome[] = [];
  const report = (outcome: Outcome) => {
    outcomes.push(outcome);
    console.log(`${outcome.refused ? 'refused   ' : 'REPRODUCED'}  ${outcome.finding}: ${outcome.attack}\n            ${outcome.detail}`);
  };
  try {
    // Consent before the OAuth flood, which uses up the address's registrations; pollution last: before
    // it was refused, it broke the isolate for everything after.
    for (const attacks of [answerSize, cpu, lowFindings, messagesLimit, consentGuesses, oauthFlood, pollution]) {
      const client = new Client(url, arg('--key') ?? (await newKey()));
      for (const outcome of await attacks(client)) report(outcome);
    }
    if (n8nAccess && stateDir) for (const outcome of await n8nAttacks(async (scopes) => new Client(url, await newKey(scopes)), n8nAccess)) report(outcome);
    else console.log('issue 39: not tried (no n8n: give --n8n-url, --n8n-key and --state-dir with --url)');
  } finally {
    await server?.stop();
    await n8n?.stop();
  }
  const file = arg('--out') ?? 'bench/results/hostile.json';
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), server: given ?? 'npm run dev', outcomes }, null, 2));
  const reproduced = outcomes.filter((o) => !o.refused).length;
  console.log(`\n${outcomes.length - reproduced} of ${outcomes.length} attacks refused (${file})`);
  process.exitCode = reproduced === 0 ? 0 : 1;
}

await main();
