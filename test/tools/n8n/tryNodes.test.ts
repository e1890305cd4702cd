import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { taskStub } from '../../../src/tasks/taskId';
import { REQUEST_NODE, THROWAWAY_PREFIX } from '../../../src/tools/n8n/tryNodes';
import { loadCatalog } from '../../support/catalog';
import { connect, n8nSpecs, node } from '../../support/n8nCatalog';
import { waitFor } from '../../support/sessionStorage';
import { deliverRun, TASK_OWNER, taskWaitingOn } from '../../support/tasks';
import { callDirect, fakeN8n, fakeN8nApi } from '../../support/tools';
import { everyEntry } from '../../support/n8nPages';

/**
 * try_nodes against the contract fake of n8n (its webhooks leave an execution of the Webhook node
 * alone, after a delay the test sets; its faults fail any step): whatever step fails, the call is
 * cancelled or its time runs out, the throwaway workflow and its executions are gone afterwards, or
 * the answer names what is left, by id. Refusals send nothing to n8n.
 */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const withN8n = { overrides: { N8N_API_URL: n8nUrl, N8N_API_KEY: n8nKey } };

/** Every entry of one of n8n's lists. */
const all = (path: string) => everyEntry((p) => fakeN8nApi('GET', p), path);

/**
 * What the tries left in the fake: throwaway workflows (by their name), and executions of a throwaway
 * workflow or of one that is gone (a try deletes its workflow; the other tests' workflows stay).
 */
async function leftInN8n() {
  const saved = await all('/workflows');
  const workflows = saved.filter((w) => String(w.name).startsWith(THROWAWAY_PREFIX)).map((w) => w.id as string);
  const others = new Set(saved.map((w) => w.id as string).filter((id) => !workflows.includes(id)));
  const executions = (await all('/executions')).filter((e) => !others.has(e.workflowId)).map((e) => String(e.id));
  return { workflows, executions };
}
const NOTHING = { workflows: [], executions: [] };

/** A node every catalog has a word for: No Operation passes the items on. */
const noOp = { name: 'Pass', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };

/** Requests sent to the fake by `work` (n8n's API and its webhooks), in order. */
async function requestsOf(work: () => Promise<unknown>): Promise<string[]> {
  const before = ((await fakeN8n('requests')) as string[]).length;
  await work();
  return ((await fakeN8n('requests')) as string[]).slice(before);
}

beforeEach(async () => {
  expect(await leftInN8n()).toEqual(NOTHING);
});
afterEach(async () => {
  await fakeN8n('config', { webhookDelayMs: 0, faults: [] });
  vi.restoreAllMocks();
});

describe('try_nodes leaves nothing behind in n8n', () => {
  it('creates the throwaway workflow, activates it, calls its webhook marked, reads its execution, then deactivates and deletes both', async () => {
    let answer: any;
    const sent = await requestsOf(async () => (answer = await callDirect('try_nodes', { nodes: [noOp], items: [{ a: 1 }] })));
    // n8n's API and its webhooks (not its editor page, read once for its release).
    const requests = sent.filter((r) => /^\w+ \/(api|webhook)\//.test(r));
    expect(answer.isError, answer.text).toBe(false);
    const { workflow, executions } = answer.json.cleanUp;
    expect(answer.json.cleanUp).toEqual({ deleted: true, workflow, executions: [expect.stringMatching(/^\d+$/)] });
    // The fake runs only the Webhook: no item reached the node, and the answer names none of the tool's own nodes.
    expect(answer.json.output).toEqual({ node: 'Pass', count: 0, items: [], note: 'No item reached "Pass", so it did not run.' });
    expect(answer.text).not.toContain('Sample items');
    const path = (r: string) => r.replace(/\?.*/, '');
    // The node gate reads the workflow before it is activated and before its webhook is called.
    expect(requests.map(path)).toEqual([
      'POST /api/v1/workflows',
      `GET /api/v1/workflows/${workflow}`,
      `POST /api/v1/workflows/${workflow}/activate`,
      `GET /api/v1/workflows/${workflow}`,
      expect.stringMatching(/^POST \/webhook\/try-nodes-[0-9a-f-]{36}$/),
      'GET /api/v1/executions',
      `GET /api/v1/executions/${executions[0]}`,
      `POST /api/v1/workflows/${workflow}/deactivate`,
      'GET /api/v1/executions',
      'GET /api/v1/executions',
      `DELETE /api/v1/executions/${executions[0]}`,
      `DELETE /api/v1/workflows/${workflow}`,
    ]);
    // Finished executions, and running ones (n8n lists those only when asked).
    const lists = requests.filter((r) => r.startsWith('GET /api/v1/executions?')).slice(1);
    expect(lists).toHaveLength(2);
    expect(lists).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`workflowId=${workflow}&limit=100`),
        expect.stringContaining(`workflowId=${workflow}&status=running&limit=100`),
      ]),
    );
    expect(await leftInN8n()).toEqual(NOTHING);
  });

  // Each step of the run failing once: n8n's error is answered with what became of the throwaway workflow.
  it.each([
    [
      'creating it (refused before n8n made it)',
      { request: 'POST /api/v1/workflows', status: 503 },
      /n8n failed on POST .*workflows \(503\).*n8n did not create the throwaway workflow: nothing is left/,
    ],
    [
      'creating it (n8n made it, its answer was lost): found by its name',
      { request: 'POST /api/v1/workflows', status: 503, afterHandling: true },
      /n8n failed on POST .*workflows \(503\).*The throwaway workflow \w+ was deleted with its executions: nothing is left in n8n/,
    ],
    ['activating it', { request: 'POST /api/v1/workflows/*/activate', status: 503 }, /\(503\).*was deleted with its executions/],
    ['calling its webhook', { request: 'POST /webhook/*', status: 404 }, /webhook answered 404.*was deleted with its executions/],
    ['listing its executions', { request: 'GET /api/v1/executions', status: 500 }, /n8n failed on GET .*executions \(500\).*was deleted with its executions/],
    ['reading its execution', { request: 'GET /api/v1/executions/*', status: 500 }, /\(500\).*was deleted with its executions/],
  ])('when %s', async (_, fault, said) => {
    await fakeN8n('config', { faults: [{ ...fault, times: 1 }] });
    const answer = await callDirect('try_nodes', { nodes: [noOp] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(said);
    expect(await leftInN8n()).toEqual(NOTHING);
  });

  it('when the call is cancelled while the webhook has not answered', async () => {
    await fakeN8n('config', { webhookDelayMs: 30_000 });
    const record = await taskWaitingOn('try_nodes', { nodes: [noOp], waitSeconds: 30 }, { deadline: Date.now() + 60_000 });
    const earlier = ((await fakeN8n('requests')) as string[]).length;
    const running = deliverRun(record, withN8n);
    await waitFor(
      () => fakeN8n('requests'),
      (requests: string[]) => requests.slice(earlier).some((r) => r.startsWith('POST /webhook/try-nodes-')),
    );
    expect((await leftInN8n()).workflows).toHaveLength(1);
    expect(await taskStub(env, record.taskId).cancel(TASK_OWNER)).toBe(true);
    await running;
    expect(await leftInN8n()).toEqual(NOTHING);
  }, 20_000);

  it('when the call’s time runs out: the run stops early enough to clean up before the deadline', async () => {
    await fakeN8n('config', { webhookDelayMs: 30_000 });
    // 17 s left: the run stops 15 s before the deadline, leaving those for the clean-up.
    const deadline = Date.now() + 17_000;
    const run = await deliverRun(await taskWaitingOn('try_nodes', { nodes: [noOp], waitSeconds: 30 }, { deadline }), withN8n);
    expect(Date.now()).toBeLessThan(deadline);
    expect(run.text).toMatch(/did not answer before the run had to stop.*was deleted with its executions: nothing is left in n8n/);
    expect(await leftInN8n()).toEqual(NOTHING);
  }, 25_000);

  it('when deleting its executions or deactivating it fails: n8n deletes them with the workflow', async () => {
    await fakeN8n('config', {
      faults: [
        { request: 'DELETE /api/v1/executions/*', status: 503, times: 2 },
        { request: 'POST /api/v1/workflows/*/deactivate', status: 503, times: 2 },
      ],
    });
    const answer = await callDirect('try_nodes', { nodes: [noOp] });
    expect(answer.json.cleanUp).toMatchObject({ deleted: true });
    expect(await leftInN8n()).toEqual(NOTHING);
  });

  it('and a delete that fails once is tried again', async () => {
    await fakeN8n('config', { faults: [{ request: 'DELETE /api/v1/workflows/*', status: 503, times: 1 }] });
    const answer = await callDirect('try_nodes', { nodes: [noOp] });
    expect(answer.json.cleanUp).toMatchObject({ deleted: true });
    expect(await leftInN8n()).toEqual(NOTHING);
  });

  it('says what is left, by id, and logs it without the key, when n8n will not delete the workflow', async () => {
    await fakeN8n('config', { faults: [{ request: 'DELETE /api/v1/workflows/*', status: 503, times: 2 }] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = await callDirect('try_nodes', { nodes: [noOp] });
    const left = await leftInN8n();
    expect(left.workflows).toHaveLength(1);
    const [workflow] = left.workflows;
    // Its execution was deleted before the workflow's delete failed; the workflow is left inactive.
    expect(left.executions).toEqual([]);
    expect(answer.json.cleanUp).toEqual({
      deleted: false,
      left: { workflow, active: false, executions: [] },
      warning: expect.stringMatching(
        new RegExp(
          `^Cleaning up after the run failed \\(delete the workflow: n8n failed on DELETE .*\\(503\\).*\\): the throwaway workflow ${workflow} \\(inactive\\) is left in n8n: delete it with delete_workflow\\.$`,
        ),
      ),
    });
    const line = logged.mock.calls.map(([text]) => String(text)).find((text) => text.includes('could not delete the throwaway workflow'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'error', tool: 'try_nodes', left: { workflow } });
    expect(line).not.toContain(n8nKey);
    await fakeN8nApi('DELETE', `/workflows/${workflow}`);
    expect(await leftInN8n()).toEqual(NOTHING);
  });
});

describe('try_nodes refuses what n8n cannot run, before anything is sent', () => {
  const refusedWithoutSending = async (args: Record<string, unknown>) => {
    let answer: any;
    const requests = await requestsOf(async () => (answer = await callDirect('try_nodes', args)));
    expect(requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(answer.isError).toBe(true);
    return answer;
  };

  it('a node with errors: the validation findings', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const answer = await refusedWithoutSending({ nodes: [node('Set', 'set', 3.4, { mode: 'sideways' })] });
    expect(answer.json).toMatchObject({
      ran: false,
      reason: expect.stringMatching(/^The nodes have errors/),
      errors: [{ node: 'Set', path: 'parameters.mode', code: 'invalid_option' }],
    });
  });

  it('a trigger, an AI sub-node on its own, a node without the credentials it needs: each with what to do', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const answer = await refusedWithoutSending({
      nodes: [
        node('Every hour', 'scheduleTrigger', 1.2),
        node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.2, {}, { credentials: { openAiApi: { id: '1', name: 'OpenAI' } } }),
        node('Post', 'slack', 2.3, {
          resource: 'message',
          operation: 'post',
          select: 'channel',
          channelId: { __rl: true, mode: 'id', value: 'C0122KQ70S7' },
          text: 'hi',
        }),
      ],
    });
    expect(answer.json.reason).toMatch(/^n8n cannot run these nodes as given/);
    expect(answer.json.cannotRun).toEqual([
      { node: 'Every hour', why: expect.stringMatching(/is a trigger: .* Leave it out and try the nodes after it/) },
      {
        node: 'Model',
        why: expect.stringMatching(
          /is an AI sub-node: it gives "ai_languageModel" to a root node .* attach this one with connections: \{"Model": \{"ai_languageModel"/,
        ),
      },
      { node: 'Post', why: expect.stringMatching(/needs a "slackApi" credential.*create_credential makes one/) },
    ]);
    // Findings of the chain's connections into the trigger and the sub-node are moot: those nodes are to be left out or attached.
    expect(answer.json.errors).toBeUndefined();
    // Said once: not again among the warnings.
    expect(JSON.stringify(answer.json.warnings ?? [])).not.toContain('missing_credentials');
  });

  it('a Respond to Webhook, which answers a waiting Webhook that the tried nodes are not fed by (n8n answered 500)', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const answer = await refusedWithoutSending({
      nodes: [node('Answer', 'respondToWebhook', 1.5, { respondWith: 'json', responseBody: '={{ { ok: true } }}' })],
    });
    expect(answer.json.cannotRun).toEqual([
      { node: 'Answer', why: expect.stringMatching(/does not wait: n8n refuses it there\. Try the nodes before it.*test_workflow/) },
    ]);
  });

  it('an AI sub-node attached to its root node by connections is not refused for that', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const answer = await refusedWithoutSending({
      nodes: [
        node('Agent', '@n8n/n8n-nodes-langchain.agent', 1.7, { promptType: 'define', text: '={{ $json.question }}' }),
        node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.2),
      ],
      connections: connect(['Model', 'Agent', 0, 'ai_languageModel']),
    });
    expect(answer.json.cannotRun.map((c: { node: string; why: string }) => [c.node, c.why.slice(0, 40)])).toEqual([
      ['Model', 'OpenAI Chat Model needs a "openAiApi" cr'],
    ]);
  });

  it('a node named as one of its own', async () => {
    const answer = await refusedWithoutSending({ nodes: [{ ...noOp, name: REQUEST_NODE }] });
    expect(answer.text).toMatch(/is the name of a node try_nodes adds itself .* give your node another name/);
    const wired = await refusedWithoutSending({ nodes: [noOp], connections: { Pass: { main: [[{ node: REQUEST_NODE, type: 'main', index: 0 }]] } } });
    expect(wired.text).toMatch(/is the name of a node try_nodes adds itself/);
  });
});
