import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeTool } from '../../src/server/runTool';
import { loadCatalog, seedSpecs } from '../support/catalog';
import { clippedReport, RUNS } from '../support/fuzz';
import { hostileString, hostileValue } from '../support/hostileInputs';
import {
  directContext,
  nullPrototypeAt,
  productionTools,
  renamedNode,
  savedSampleWorkflow,
  withN8n,
  SAMPLE_WORKFLOW,
  sampleArguments,
  stringPositions,
  withNameAt,
} from '../support/hostile';
import { pollutedSince, prototypesSnapshot, restorePrototypes } from '../support/specialNames';
import { initializeRequest, postJson } from '../support/mcp';
import { n8nSpecs } from '../support/n8nCatalog';

/**
 * Every tool (the n8n ones against the contract fake of n8n), with valid arguments in which one
 * string, key or value is replaced by a hostile one: prototype names, long names, expression text made
 * to backtrack, deep nesting. Each call must end in a tool result (an error result is fine) within the
 * hang bound, with an answer no larger than its input allows, and leave the built-in prototypes alone.
 */
const n8nEnv = withN8n();
const context = () => directContext(n8nEnv);
const tools = productionTools(n8nEnv);

/** No single call may take this long: past it, the isolate would be held (a hang, not a speed target). */
const HANG_MS = 10_000;
/** An answer may repeat its input (autofix returns the workflow) in text and structured form, plus bounded findings. */
const answerBound = (input: number) => 4 * input + 2 * 1024 * 1024;

const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

let workflowId = '';
async function freshWorkflow(): Promise<void> {
  workflowId = await savedSampleWorkflow(n8nEnv);
}

/** One call: a tool, and which position of its sample arguments gets what. */
const call = fc.record({
  tool: fc.constantFrom(...tools.map((t) => t.name)),
  position: fc.nat(),
  replacement: fc.oneof(
    { weight: 3, arbitrary: hostileString.map((s) => ({ kind: 'string' as const, s })) },
    { weight: 1, arbitrary: hostileValue.map((v) => ({ kind: 'value' as const, v })) },
  ),
  renamed: fc.option(
    fc.record({
      node: fc.constantFrom(...SAMPLE_WORKFLOW.nodes.map((n) => n.name)),
      sourcesAs: fc.constantFrom('name' as const, 'upper case' as const, 'id' as const),
    }),
    { nil: undefined },
  ),
});

/** Four calls per run of the other properties: each is cheap, and they spread over 40 tools. */
const CALLS = RUNS * 4;

describe('every tool, property-based, with hostile strings and values', () => {
  it(`answers within the hang bound, with a bounded answer, prototypes untouched (${CALLS} calls)`, async ({ task }) => {
    await freshWorkflow();
    let tried = 0;
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(call, async ({ tool: name, position, replacement, renamed }) => {
        const tool = tools.find((t) => t.name === name)!;
        tried++;
        if (tried % 200 === 0) await freshWorkflow();
        const args = sampleArguments(tool, { id: workflowId });
        const positions = stringPositions(args);
        const at = positions[position % positions.length]!;
        let text: string;
        if (renamed && 'workflow' in args && replacement.kind === 'string') {
          text = JSON.stringify(args).replace(JSON.stringify(args.workflow), renamedNode(SAMPLE_WORKFLOW, renamed.node, replacement.s, renamed.sourcesAs));
        } else if (replacement.kind === 'string') {
          text = withNameAt(args, at, replacement.s);
        } else {
          text = withNameAt(args, { ...at, kind: 'value' }, '\u0001').replace('"\\u0001"', replacement.v);
        }
        const parsed = tool.input.safeParse(JSON.parse(text));
        if (!parsed.success) return;
        ran++;
        const started = Date.now();
        const result = await invokeTool(tool, parsed.data, context());
        expect(Date.now() - started, `${tool.name} ${text.slice(0, 200)}`).toBeLessThan(HANG_MS);
        expect(result.content).toBeInstanceOf(Array);
        expect(nullPrototypeAt(result)).toBeUndefined();
        expect(JSON.stringify(result).length, tool.name).toBeLessThan(answerBound(text.length));
        expect(pollutedSince(pristine), `${tool.name} ${text.slice(0, 300)}`).toEqual([]);
      }),
      { numRuns: CALLS, asyncReporter: async (details) => clippedReport(details) },
    );
    expect(tried).toBe(CALLS);
    console.log(`tools fuzz: ${tried} inputs, ${ran} past the tools' input schemas`);
    task.meta.inputs = tried;
    expect((await postJson('/mcp', initializeRequest())).status).toBe(200);
  }, 1_800_000);
});
