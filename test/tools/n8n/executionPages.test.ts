import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET_BYTES } from '../../../src/config';
import { answerBytes, bytesInAnswer } from '../../../src/protocol/answerBytes';
import { formatToolResult } from '../../../src/server/formatResult';
import { executionPage } from '../../../src/tools/n8n/executionPages';
import type { Execution } from '../../../src/tools/n8n/executionReport';

const items = (node: string, run: number, output: number, count: number, size = 300) =>
  Array.from({ length: count }, (_, i) => ({ json: { node, run, output, i, pad: 'p'.repeat(size) }, pairedItem: { item: i } }));

/** An execution of A (3,000 items), B (two runs, each 2,000 items on its first output and 1,000 on its second) and C (failed, no items). */
function large(): Execution {
  const run = (index: number, main: unknown[][], extra = {}) => ({
    startTime: index,
    executionIndex: index,
    executionTime: 2,
    executionStatus: 'success',
    source: [],
    data: { main },
    ...extra,
  });
  return {
    id: '7',
    status: 'error',
    data: {
      resultData: {
        error: { message: 'C failed', name: 'NodeOperationError' },
        lastNodeExecuted: 'C',
        runData: {
          A: [run(0, [items('A', 0, 0, 3_000)])],
          B: [run(1, [items('B', 0, 0, 2_000), items('B', 0, 1, 1_000)]), run(2, [items('B', 1, 0, 2_000), items('B', 1, 1, 1_000)])],
          C: [{ ...run(3, []), executionStatus: 'error', error: { message: 'C failed' } }],
        },
      },
    },
    workflowData: { nodes: [], connections: {} },
  } as unknown as Execution;
}

/** Every page of the execution, following nextCursor from the first. */
function pages(execution: Execution): Record<string, any>[] {
  const bytes = bytesInAnswer(execution);
  const all = [executionPage(execution, bytes, undefined)];
  while (all.at(-1)!.nextCursor) all.push(executionPage(execution, bytes, all.at(-1)!.nextCursor as string));
  return all;
}

describe('an execution a page at a time', () => {
  it('gives every item once, in the order the nodes ran, each page within the answer budget', () => {
    const execution = large();
    const all = pages(execution);
    expect(all.length).toBeGreaterThan(2);
    for (const page of all) expect(answerBytes(formatToolResult(page))).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    const seen = all.flatMap((page) => page.data.runData.flatMap((r: any) => r.outputs.flatMap((o: any) => o.items.map((item: any) => item.json))));
    const stored = Object.values(execution.data!.resultData!.runData!).flatMap((runs) =>
      runs.flatMap((r) =>
        Object.values(r.data!)
          .flat(2)
          .map((item: any) => item.json),
      ),
    );
    expect(seen).toEqual(stored);
    // Where each slice sits: its output and first item, of how many.
    const slices = all.flatMap((page) => page.data.runData.flatMap((r: any) => r.outputs.map((o: any) => [r.node, r.run, o.type, o.index, o.from, o.count])));
    expect(slices[0]).toEqual(['A', 0, 'main', 0, 0, 3_000]);
    expect(
      slices.every(
        ([node, run, , index, from]: any[], i: number) => i === 0 || from === 0 || slices[i - 1].slice(0, 4).join() === [node, run, 'main', index].join(),
      ),
    ).toBe(true);
  });

  it('keeps each run as n8n stored it: its status, times and error, a failed run without items too', () => {
    const all = pages(large());
    const c = all.flatMap((page) => page.data.runData).find((r: any) => r.node === 'C');
    expect(c).toEqual({
      node: 'C',
      run: 0,
      startTime: 3,
      executionIndex: 3,
      executionTime: 2,
      executionStatus: 'error',
      source: [],
      error: { message: 'C failed' },
      outputs: [],
    });
    expect(all[0]!.data.resultData).toEqual({ error: { message: 'C failed', name: 'NodeOperationError' }, lastNodeExecuted: 'C' });
  });

  it('says what the first page holds, how to read the next, and what no page holds; nodes lists what each one put out', () => {
    const [first, second] = pages(large());
    expect(first!.nodes).toEqual([
      { node: 'A', status: 'success', runs: 1, items: [3_000] },
      { node: 'B', status: 'success', runs: 2, items: [2_000, 1_000] },
      { node: 'C', status: 'error', error: 'C failed', runs: 1, items: [] },
    ]);
    expect(first!.page).toMatch(
      /^Execution 7's data is [\d,]+ bytes, more than the 800,000 one answer holds: it comes a page at a time, run by run in the order the nodes ran \(nodes: what each one put out\)\. This page holds "A" run 0 main output 0 items 0–\d+ of 3000\./,
    );
    expect(first!.page).toContain(`The next page: get_execution with id 7, includeData, fullData and cursor "${first!.nextCursor}".`);
    expect(first!.page).toContain('Not in the pages: the workflow as it ran');
    expect(first).not.toHaveProperty('workflowData');
    expect(second).not.toHaveProperty('nodes');
  });

  it('shows an item larger than a page cut, says so, and moves on', () => {
    const execution = large();
    const runData = execution.data!.resultData!.runData!;
    runData.A![0]!.data!.main![0]!.splice(1, 0, ...items('A', 0, 0, 1, ANSWER_BUDGET_BYTES));
    const all = pages(execution);
    const page = all.find((p) => (p.page as string).includes('Shown cut'))!;
    expect(page.page).toMatch(/Shown cut, each larger than a page: "A" run 0, main output 0, item 1 \([\d,]+ bytes\)\./);
    expect(page.data.runData[0].outputs[0].items).toEqual([expect.stringMatching(/… \(\d+ characters\)$/)]);
    expect(all.flatMap((p) => p.data.runData.flatMap((r: any) => r.outputs.flatMap((o: any) => o.items))).length).toBe(3_000 + 1 + 6_000);
  });

  it('quotes node names of any length in its sentence clipped, so the page stays within the budget', () => {
    const long = (n: string) => `${n}${'n'.repeat(5_000)}`;
    const execution = large();
    const runData = execution.data!.resultData!.runData!;
    execution.data!.resultData!.runData = Object.fromEntries(Object.entries(runData).map(([name, runs]) => [long(name), runs]));
    const all = pages(execution);
    for (const page of all) {
      expect(answerBytes(formatToolResult(page))).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(page.page).not.toContain('n'.repeat(100));
    }
    expect(all[0]!.page).toContain(`"${long('A').slice(0, 100)}…" run 0 main output 0 items 0–`);
  });

  it('refuses a cursor past the end of the data', () => {
    expect(() => executionPage(large(), 1, '3.0.0.0')).toThrow(/^cursor "3\.0\.0\.0" is past the end of execution 7's data: 3 nodes ran\.$/);
  });
});
