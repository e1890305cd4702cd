import { describe, expect, it } from 'vitest';
import {
  clip,
  failureOf,
  mainOutputs,
  itemsPutOut,
  nodeSummaries,
  outputLabel,
  outputNamesOf,
  runPath,
  stopText,
  whereItemsStopped,
  withoutHostDetails,
  withoutPaths,
  type Execution,
} from '../../../src/tools/n8n/executionReport';
// Executions a real n8n 1.123.81 stored for one workflow (Hook → Split → Check → Keep → Respond, as in
// test/e2e-n8n/testRuns.test.ts), read back with includeData: Check failing on an item without `need`,
// Keep discarding every item, and a run that answered.
import answered from '../../fixtures/executions/answered.json';
import failed from '../../fixtures/executions/failed.json';
import stopped from '../../fixtures/executions/stopped.json';
// An execution a real n8n 1.123.81 stored of Hook → Items → Fails per item (a Code node that continues on
// its failure) → Call nowhere (an HTTP Request to a closed port, continuing on its failure) → Read file
// (Execute Command: cat of a file missing from n8n's user folder, which fails the run).
import hostDetails from '../../fixtures/executions/hostDetails.json';
import { n8nCatalog } from '../../support/n8nCatalog';

const real = (e: unknown) => structuredClone(e) as Execution;

describe('the report of an execution', () => {
  it('lists the nodes in the order they ran, with the items on each output of their last run', () => {
    expect(runPath(real(answered))).toEqual(['Hook', 'Split', 'Check', 'Keep', 'Respond']);
    expect(nodeSummaries(real(answered)).map(({ node, status, runs, items }) => ({ node, status, runs, items }))).toEqual([
      { node: 'Hook', status: 'success', runs: 1, items: [1] },
      { node: 'Split', status: 'success', runs: 1, items: [2] },
      { node: 'Check', status: 'success', runs: 1, items: [2] },
      { node: 'Keep', status: 'success', runs: 1, items: [2, 0] },
      { node: 'Respond', status: 'success', runs: 1, items: [2] },
    ]);
  });

  it('gives the items of each main output of a node as n8n stored them: a Filter’s kept, then its discarded', () => {
    const keep = mainOutputs(real(stopped), 'Keep')!;
    expect(keep.map((items) => items.length)).toEqual([0, 2]);
    expect(keep[1]!.map((item) => item.json)).toEqual(real(stopped).data!.resultData!.runData!.Check![0]!.data!.main![0]!.map((item) => item.json));
    // A node that failed put out nothing; one that never ran has no outputs at all.
    expect(mainOutputs(real(failed), 'Check')).toEqual([]);
    expect(mainOutputs(real(failed), 'Keep')).toBeUndefined();
  });

  it('orders by start time when n8n gives no execution index (older releases)', () => {
    const e = real(answered);
    const runData = e.data!.resultData!.runData!;
    for (const runs of Object.values(runData)) delete runs[0]!.executionIndex;
    runData.Hook![0]!.startTime = Number.MAX_SAFE_INTEGER - 1;
    expect(runPath(e).at(-1)).toBe('Hook');
  });

  it('shows the request headers on the trigger only, without the ones it is told to hide', () => {
    const [hook] = nodeSummaries(real(answered), { trigger: 'Hook', hideHeaders: ['x-mcp-test-run'] });
    const sample = hook!.sample as { headers: Record<string, string>; body: unknown };
    expect(sample.body).toEqual({ n: 2, need: 'yes' });
    expect(sample.headers).toHaveProperty('content-type', 'application/json');
    expect(sample.headers).not.toHaveProperty('x-mcp-test-run');
    // A node that passes the trigger's item on shows a note instead of the headers again.
    const e = real(answered);
    e.data!.resultData!.runData!.Split![0]!.data!.main![0]![0]!.json = structuredClone(e.data!.resultData!.runData!.Hook![0]!.data!.main![0]![0]!.json);
    const split = nodeSummaries(e, { trigger: 'Hook' }).find((n) => n.node === 'Split')!;
    expect((split.sample as { headers: unknown }).headers).toBe('(the request headers, as on "Hook")');
  });

  it('names the node that failed, its error as n8n stored it, and the items it was given', () => {
    const e = real(failed);
    const stored = e.data!.resultData!.runData!.Check![0]!.error!;
    expect(failureOf(e)).toEqual({
      node: 'Check',
      error: stored.message,
      input: {
        from: 'Split',
        items: 2,
        samples: [
          { i: 0, n: 2, min: 0 },
          { i: 1, n: 2, min: 0 },
        ],
      },
    });
    expect(nodeSummaries(e).find((n) => n.node === 'Check')).toMatchObject({ status: 'error', error: stored.message, items: [] });
  });

  it("takes a failed node's input from its upstream node's output when n8n kept no execution stack", () => {
    const e = real(failed);
    delete e.data!.executionData;
    expect(failureOf(e)?.input).toEqual({ from: 'Split', items: 2, samples: [expect.objectContaining({ i: 0 }), expect.objectContaining({ i: 1 })] });
  });

  it('finds no failure in a run that succeeded', () => {
    expect(failureOf(real(answered))).toBeUndefined();
    expect(failureOf(real(stopped))).toBeUndefined();
  });

  it('never answers the stack or a file path of the instance', () => {
    const e = real(failed);
    expect(JSON.stringify(e)).toMatch(/node_modules/);
    e.data!.resultData!.runData!.Check![0]!.error!.description = `Cannot find module '/usr/local/lib/node_modules/n8n/dist/x.js' (see /home/node/.n8n/config)`;
    const answer = JSON.stringify([failureOf(e), nodeSummaries(e)]);
    expect(answer).not.toMatch(/node_modules|\/home\/|stack|VmCodeWrapper/);
    expect(answer).toContain(`Cannot find module '<path>' (see <path>)`);
  });

  it('names the item a node failed on, where n8n says which, and leaves out the input of a node it is told not to name', () => {
    const e = real(failed);
    // n8n 1.123.81 keeps the item of an expression or a field's type in the error's context (a Code node for all items has none).
    e.data!.resultData!.runData!.Check![0]!.error!.context = { itemIndex: 1 };
    expect(failureOf(e)).toMatchObject({ node: 'Check', item: { index: 1, json: { i: 1, n: 2, min: 0 } }, input: { from: 'Split', items: 2 } });
    expect(failureOf(real(failed))).not.toHaveProperty('item');
    const unnamed = failureOf(e, { unnamed: ['Split'] })!;
    expect(unnamed.input).toEqual({ items: 2, samples: [expect.objectContaining({ i: 0 }), expect.objectContaining({ i: 1 })] });
    expect(unnamed.item).toEqual({ index: 1, json: { i: 1, n: 2, min: 0 } });
  });

  it('labels the outputs of a node that has several, where their names are known', () => {
    const names = (node: string) => (node === 'Keep' ? ['Kept'] : undefined);
    const keep = nodeSummaries(real(stopped), { outputNames: names }).find((n) => n.node === 'Keep')!;
    expect(keep).toMatchObject({
      outputs: [
        { name: 'Kept', count: 0 },
        { name: 'Discarded', count: 2 },
      ],
    });
    expect(keep).not.toHaveProperty('items');
    expect(itemsPutOut(keep)).toBe(2);
    // One output, or names unknown: the counts as n8n stored them.
    expect(nodeSummaries(real(stopped), { outputNames: names }).find((n) => n.node === 'Check')).toMatchObject({ items: [2] });
    expect(nodeSummaries(real(stopped)).find((n) => n.node === 'Keep')).toMatchObject({ items: [0, 2] });
    expect([outputLabel(['true', 'false'], 1), outputLabel(['Kept'], 1), outputLabel(undefined, 2), outputLabel([], 0)]).toEqual([
      'false',
      'Discarded',
      '2',
      '0',
    ]);
  });

  it('names outputs from the nodes’ descriptions for their parameters, and none for a node it cannot tell', () => {
    const names = outputNamesOf(
      [
        { name: 'IF', type: 'n8n-nodes-base.if', typeVersion: 2.2, parameters: {} },
        {
          name: 'Route',
          type: 'n8n-nodes-base.switch',
          typeVersion: 3.2,
          parameters: { rules: { values: [{ renameOutput: true, outputKey: 'vip' }, {}] } },
        },
        { name: 'Keep', type: 'n8n-nodes-base.filter', typeVersion: 2.2, parameters: {} },
        { name: 'Other', type: 'n8n-nodes-base.nope', typeVersion: 1, parameters: {} },
      ],
      n8nCatalog,
    );
    expect(names('IF')).toEqual(['true', 'false']);
    expect(names('Route')).toEqual(['vip', '1']);
    expect(names('Keep')).toEqual(['Kept']);
    expect(names('Other')).toBeUndefined();
    expect(outputNamesOf([{ name: 'IF', type: 'n8n-nodes-base.if', typeVersion: 2.2 }], null)('IF')).toBeUndefined();
  });

  it('tells a branch not taken (an output that got no items while the node put items on another) and says where its items went', () => {
    const stop = whereItemsStopped(real(stopped), 'Hook', (node) => (node === 'Keep' ? ['Kept'] : undefined));
    expect(stop).toEqual({
      stops: [
        {
          node: 'Keep',
          kind: 'branch not taken',
          outputs: [
            { name: 'Kept', count: 0, to: ['Respond'] },
            { name: 'Discarded', count: 2, to: [] },
          ],
          didNotRun: ['Respond'],
        },
      ],
      didNotRun: ['Respond'],
    });
    expect(stopText(stop.stops[0]!)).toBe('output "Kept" of "Keep" got no items (2 on "Discarded", which leads nowhere), so "Respond" did not run');
    expect(whereItemsStopped(real(answered), 'Hook')).toEqual({ stops: [], didNotRun: [] });
  });

  it('tells a chain that stopped (a node that put out no items) from a branch not taken, each with the nodes after it', () => {
    // Hook → Split → Check → Keep → Respond, where Check put out nothing: Keep and Respond never ran.
    const e = real(answered);
    const runData = e.data!.resultData!.runData!;
    runData.Check![0]!.data!.main = [[]];
    delete runData.Keep;
    delete runData.Respond;
    const { stops, didNotRun } = whereItemsStopped(e, 'Hook');
    expect(didNotRun).toEqual(['Keep', 'Respond']);
    expect(stops).toEqual([{ node: 'Check', kind: 'no items', outputs: [{ name: '0', count: 0, to: ['Keep'] }], didNotRun: ['Keep', 'Respond'] }]);
    expect(stopText(stops[0]!)).toBe('"Check" put out no items, so "Keep", "Respond" did not run');

    // An IF that sent every item to "true": its "false" branch (Other, then After) was not taken.
    const branched = real(answered);
    branched.workflowData!.connections = {
      ...(branched.workflowData!.connections as object),
      Keep: { main: [[{ node: 'Respond', type: 'main', index: 0 }], [{ node: 'Other', type: 'main', index: 0 }]] },
      Other: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
    };
    branched.workflowData!.nodes!.push({ name: 'Other' }, { name: 'After' });
    const ifNames = (node: string) => (node === 'Keep' ? ['true', 'false'] : undefined);
    const taken = whereItemsStopped(branched, 'Hook', ifNames);
    expect(taken.stops).toEqual([
      {
        node: 'Keep',
        kind: 'branch not taken',
        outputs: [
          { name: 'true', count: 2, to: ['Respond'] },
          { name: 'false', count: 0, to: ['Other'] },
        ],
        didNotRun: ['Other', 'After'],
      },
    ]);
    expect(stopText(taken.stops[0]!)).toBe('output "false" of "Keep" got no items (2 on "true"), so "Other", "After" did not run');
  });

  it('expects no disabled node to run', () => {
    const e = real(stopped);
    (e.workflowData!.nodes as { name: string; disabled?: boolean }[]).find((n) => n.name === 'Respond')!.disabled = true;
    expect(whereItemsStopped(e, 'Hook')).toEqual({ stops: [], didNotRun: [] });
  });
});

describe('withoutPaths', () => {
  it('replaces absolute paths of files and modules, and leaves URLs and ordinary slashes alone', () => {
    expect(withoutPaths('at /opt/n8n/node_modules/n8n-core/dist/a.js:1:2')).toBe('at <path>');
    expect(withoutPaths('open C:\\Users\\me\\.n8n\\db.sqlite failed')).toBe('open <path> failed');
    expect(withoutPaths('GET https://api.example.com/v1/users/7 returned 404')).toBe('GET https://api.example.com/v1/users/7 returned 404');
    expect(withoutPaths('either/or, 3/4 of the items')).toBe('either/or, 3/4 of the items');
    expect(withoutPaths('cat: /work/main/.n8n/missing.txt: No such file')).toBe('cat: <path> No such file');
  });

  it('reads a message word by word: a million slashes are one word, not a pattern tried at each of them (quadratic: hours)', () => {
    expect(withoutPaths(`${'/'.repeat(1_000_000)} node_modules`)).toBe(`${'/'.repeat(1_000_000)} node_modules`);
  });
});

describe('withoutHostDetails', () => {
  /** Every string in a value, with where it is. */
  const strings = (value: unknown, at = ''): [string, string][] =>
    typeof value === 'string'
      ? [[at, value]]
      : typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, v]) => strings(v, `${at}/${key}`))
        : [];
  const keys = (value: unknown): string[] =>
    typeof value === 'object' && value !== null ? Object.entries(value).flatMap(([key, v]) => [key, ...keys(v)]) : [];

  it('leaves no stack and no path of the n8n host in execution data a real n8n stored; what the workflow made stays', () => {
    for (const fixture of [hostDetails, failed]) {
      const scrubbed = withoutHostDetails(real(fixture));
      expect(keys(scrubbed)).not.toContain('stack');
      expect(strings(scrubbed).filter(([, text]) => /node_modules|\n[ \t]+at \S/.test(text))).toEqual([]);
    }
    const scrubbed = withoutHostDetails(real(hostDetails));
    const { resultData, executionData } = scrubbed.data!;
    // The failed node's error, where the run stopped and in its run.
    const commandFailed = 'Command failed: cat <path>\ncat: <path> No such file or directory\n';
    expect(resultData!.error).toMatchObject({ name: 'NodeOperationError', message: commandFailed, context: { itemIndex: 0 } });
    expect(resultData!.runData!['Read file']![0]!.error).toMatchObject({ message: commandFailed });
    // Items a node that continues on failure put out, in its run and where they wait to be run.
    const refused = { error: { message: 'connect ECONNREFUSED 127.0.0.1:9', name: 'Error', code: 'ECONNREFUSED' } };
    expect(resultData!.runData!['Call nowhere']![0]!.data!.main![0]!.map((item) => item.json)).toEqual([refused, refused]);
    expect(executionData!.nodeExecutionStack![0]!.data!.main![0]!.map((item) => item.json)).toEqual([refused, refused]);
    expect(resultData!.runData!['Fails per item']![0]!.data!.main![0]!.map((item) => item.json)).toEqual([{ n: 1 }, { error: 'item two is bad [line 1]' }]);
    // The workflow's own parameters are its author's, not the host's.
    expect(scrubbed.workflowData!.nodes).toEqual(real(hostDetails).workflowData!.nodes);
  });

  it('replaces the paths in the messages n8n keeps with an error, and cuts the frames of a stack kept anywhere else', () => {
    const frames = '\n    at load (/usr/lib/node_modules/n8n/dist/a.js:1:2)\n    at run (node:internal/x:3:4)';
    const scrubbed = withoutHostDetails({
      error: { message: 'failed', stack: `Error: failed${frames}`, messages: ['open /root/.n8n/nope failed', 7] },
      trace: `Error: kept${frames}`,
    });
    expect(scrubbed).toEqual({ error: { message: 'failed', messages: ['open <path> failed', 7] }, trace: 'Error: kept' });
  });
});

describe('clip', () => {
  it('cuts a value longer than the limit to its start and says how long it was', () => {
    expect(clip({ a: 'x'.repeat(50) }, 20)).toBe(`{"a":"${'x'.repeat(14)}… (58 characters)`);
    const short = { a: 1 };
    expect(clip(short, 20)).toBe(short);
  });
});
