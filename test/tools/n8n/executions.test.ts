import { describe, expect, it } from 'vitest';
import { EXECUTION_DATA_LIMIT, trimExecution } from '../../../src/tools/n8n/executions';
import { toolsFor } from '../../../src/server/registry';
import { withN8n } from '../../support/hostile';
import { callDirect, fakeN8n, sentToN8n } from '../../support/tools';
// An execution a real n8n 1.123.81 stored, errors with their stacks and file paths in it (test/tools/n8n/executionReport.test.ts).
import hostDetails from '../../fixtures/executions/hostDetails.json';

/** An execution whose one node put out `items` items of `size` characters each. */
const execution = (items: number, size: number) => ({
  id: '7',
  status: 'success',
  data: {
    resultData: {
      lastNodeExecuted: 'Set',
      runData: { Set: [{ executionTime: 3, data: { main: [Array.from({ length: items }, (_, i) => ({ json: { i, pad: 'x'.repeat(size) } }))] } }] },
    },
  },
});

describe('trimExecution', () => {
  it('answers execution data under the limit as it is', () => {
    const small = execution(2, 10);
    expect(trimExecution(small, false)).toBe(small);
  });

  it('summarises data over the limit per node: runs, items, the first item, and how to get it all', () => {
    const big = execution(100, 1_000);
    expect(JSON.stringify(big.data).length).toBeGreaterThan(EXECUTION_DATA_LIMIT);
    const trimmed = trimExecution(big, false);
    expect(trimmed.data).toEqual({
      resultData: {
        lastNodeExecuted: 'Set',
        nodes: [{ node: 'Set', status: 'success', runs: 1, items: [100], sample: expect.stringMatching(/^\{"i":0,"pad":"x+… \(1016 characters\)$/) }],
      },
    });
    expect(trimmed.dataTrimmed).toMatch(/fullData: true/);
    expect(trimExecution(big, true)).toBe(big);
  });

  it("keeps a node's error in the summary", () => {
    const failed = execution(100, 1_000);
    Object.assign(failed.data.resultData.runData.Set[0]!, { error: { message: 'Bad request' } });
    expect((trimExecution(failed, false).data as any).resultData.nodes[0]).toMatchObject({ node: 'Set', status: 'error', error: 'Bad request' });
  });
});

describe('the execution tools', () => {
  it('list_executions filters by workflow, asking n8n for the data only when asked', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const { id } = await fakeN8n('executions', { workflowId, status: 'error' });
    const { result, sent } = await sentToN8n(() => callDirect('list_executions', { workflowId }));
    expect(sent[0]!.query).toBe(`?workflowId=${workflowId}`);
    expect(result.json.executions.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(result.json.executions[0]).not.toHaveProperty('data');
  });

  it('get_execution reads one with its data, and delete_execution removes it', async () => {
    const { id } = await fakeN8n('executions', { workflowId: 'wfGetDelete1', status: 'success' });
    const read = await callDirect('get_execution', { id, includeData: true });
    expect(read.json).toMatchObject({ id, status: 'success', data: expect.any(Object) });
    expect(await callDirect('delete_execution', { id })).toMatchObject({ json: { deleted: true, id } });
    expect((await callDirect('get_execution', { id })).text).toMatch(/Not found \(404\)/);
  });

  it('answers execution data without the stacks and paths of the n8n host, however it is asked for', async () => {
    const workflowId = 'wfHostDetails1';
    const { id } = await fakeN8n('executions', { workflowId, execution: hostDetails });
    const answers = [
      await callDirect('get_execution', { id, includeData: true }),
      await callDirect('get_execution', { id, includeData: true, fullData: true }),
      await callDirect('get_execution', { id, view: 'error' }),
      await callDirect('list_executions', { workflowId, includeData: true, fullData: true }),
    ];
    for (const answer of answers) {
      expect(answer.isError).toBe(false);
      expect(answer.text).toContain('Command failed: cat <path>');
      expect(answer.text).not.toMatch(/"stack"|node_modules|\\n {4}at /);
    }
  });

  it('takes only numbers as execution ids: nothing else reaches a URL', () => {
    const getExecution = toolsFor(withN8n()).find((t) => t.name === 'get_execution')!;
    for (const id of ['..', '1/../2', 'abc', '']) expect(getExecution.input.safeParse({ id }).success, id).toBe(false);
  });
});
