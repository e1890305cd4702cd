import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeTool } from '../../../src/server/runTool';
import { CREATES, n8nTool, page, READS } from '../../../src/tools/n8n/n8nTool';
import { directContext, withN8n } from '../../support/hostile';
import { sentToN8n } from '../../support/tools';

/** A tool that reads the tags and, unless it only reads, creates one: what it did and when it said so. */
function probe(annotations: typeof READS) {
  const steps: string[] = [];
  const tool = n8nTool({
    name: 'probe',
    title: 'Probe',
    description: 'Reads, then maybe writes',
    input: z.object({ name: z.string() }),
    annotations,
    async run({ name }, n8n) {
      await n8n.get('/tags');
      steps.push('read');
      if (!annotations.readOnlyHint) {
        await n8n.post('/tags', { body: { name } });
        steps.push('created');
      }
      return { done: true };
    },
  });
  const context = { ...directContext(withN8n()), beginSideEffect: async () => void steps.push('side effect begun') };
  return { tool, steps, context };
}

describe('n8nTool', () => {
  it('is queued: it calls an outside service', () => {
    expect(probe(READS).tool.execution).toBe('queued');
  });

  it('says it begins its side effect before its first request that changes n8n, and only then', async () => {
    const { tool, steps, context } = probe(CREATES);
    const { sent } = await sentToN8n(() => invokeTool(tool, { name: `probe-${crypto.randomUUID().slice(0, 8)}` }, context));
    expect(steps).toEqual(['read', 'side effect begun', 'created']);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /tags', 'POST /tags']);
  });

  it('never begins a side effect for a tool that only reads', async () => {
    const { tool, steps, context } = probe(READS);
    const result = await invokeTool(tool, { name: 'x' }, context);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ done: true });
    expect(steps).toEqual(['read']);
  });

  it('answers that n8n is not configured when the deployment has none, sending nothing', async () => {
    const { tool, context } = probe(READS);
    const { N8N_API_URL, N8N_API_KEY, ...withoutN8n } = context.env;
    const { result, sent } = await sentToN8n(() => invokeTool(tool, { name: 'x' }, { ...context, env: withoutN8n }));
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/n8n is not configured on this server \(N8N_API_URL and N8N_API_KEY\)/) }],
    });
    expect(sent).toEqual([]);
  });
});

describe('page', () => {
  it('names the items and gives the cursor only when there is a next page', () => {
    expect(page('tags', { data: [{ id: '1', extra: true }], nextCursor: 'abc' }, ({ id }) => ({ id }))).toEqual({ tags: [{ id: '1' }], nextCursor: 'abc' });
    expect(page('tags', { data: [], nextCursor: null }, (t) => t)).toEqual({ tags: [] });
  });

  it("counts a call that runs long among its caller's runs: one past RUNS_PER_CALLER is refused before it runs", async () => {
    let running = 0;
    const tool = n8nTool({
      name: 'long_probe',
      title: 'Long probe',
      description: 'Runs for a while',
      input: z.object({ id: z.string() }),
      annotations: READS,
      runsLong: () => true,
      async run() {
        running++;
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { done: true };
      },
    });
    const env = { ...withN8n(), RUNS_PER_CALLER: '1' };
    const context = () => ({ ...directContext(env), caller: { id: 'key_long', subject: 'key_long', scopes: ['*'] } });
    const first = invokeTool(tool, { id: 'w1' }, context());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await invokeTool(tool, { id: 'w2' }, context());
    expect(second).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/This caller has 1 runs going \(long_probe on workflow w1 since /) }],
    });
    expect((await first).isError).toBeFalsy();
    expect(running).toBe(1);
  });
});
