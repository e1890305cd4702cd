/**
 * Generated workflows made of hostile parts, for the workflow core's fuzzers (test/workflows/*.fuzz.test.ts):
 * prototype names as node names, connection sources, targets and types and parameter keys; long names;
 * expressions that backtracked; deep parameters; graphs at and past the size limits. As the tools do,
 * a workflow past the limits (src/workflows/limits.ts) is refused before any rule runs, in a sentence;
 * any other must end within the hang bound with an answer no larger than its input allows and leave the
 * built-in prototypes alone (`holds`).
 */
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { workflowOverLimit } from '../../src/workflows/limits';
import { backtracking, longName, prototypeName } from './hostileInputs';
import { clippedReport, RUNS } from './fuzz';
import { n8nCatalog } from './n8nCatalog';
import { pollutedSince, prototypesSnapshot, restorePrototypes } from './specialNames';

/** No single run may take this long: past it, the isolate would be held (a hang, not a speed target). */
const HANG_MS = 10_000;
const answerBound = (input: number) => 4 * input + 1024 * 1024;
/** The built-in prototypes as they were, restored after each test of a file that imports this. */
const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));

const TYPES = [
  ...n8nCatalog.typeNames().filter((t) => /\.(webhook|if|set|code|switch|merge|noOp|httpRequest|manualTrigger|agent|lmChatOpenAi|respondToWebhook)$/.test(t)),
  'n8n-nodes-base.notAThing',
];
/** A node name: ordinary ones, prototype names, long ones, anything. */
export const nodeName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('Start', 'IF', 'Set', 'Webhook', 'Respond', 'Agent', 'Model') },
  { weight: 3, arbitrary: prototypeName },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 1_200 }).map((n) => 'N'.repeat(n)) },
  { weight: 1, arbitrary: longName.map((n) => n.slice(0, 20_000)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const text = fc.oneof(
  fc.constantFrom(
    'plain',
    '={{ $json.a }}',
    "={{ $('IF').item.json.x }}",
    '{{ $json.missing }}',
    "={{ $('__proto__').first().json }}",
    '={{ $node["constructor"].json }}',
  ),
  nodeName.map((n) => `={{ $('${n}').item.json }}`),
  backtracking.map((s) => s.slice(0, 60_000)),
);
/** A parameter value: expressions naming nodes, text that backtracked, numbers, nested lists and objects with prototype keys. */
export const parameterValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, fc.integer(), fc.boolean(), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(
    fc.oneof(prototypeName, fc.constantFrom('conditions', 'values', 'options', 'assignments', 'rules', 'path', 'httpMethod')),
    tie('value'),
    { maxKeys: 4 },
  ),
})).value;

/** A node as the caller wrote it: the parts that matter here, and odd ones. */
export const workflowNode = fc.record({
  name: nodeName,
  type: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: prototypeName }),
  typeVersion: fc.constantFrom(1, 1.1, 2, 2.1, 3, 99),
  parameters: fc.dictionary(fc.oneof(prototypeName, fc.constantFrom('conditions', 'values', 'options', 'path', 'jsCode', 'text')), parameterValue, {
    maxKeys: 5,
  }),
  id: fc.oneof(fc.uuid(), prototypeName),
  disabled: fc.boolean(),
});

/** Connections as JSON text, so a source, type or key named "__proto__" stays an own key. */
const connectionsText = (names: string[]) =>
  fc
    .array(
      fc.record({
        source: fc.oneof(
          fc.constantFrom(...names, 'missing'),
          prototypeName,
          fc.constantFrom(...names).map((n) => n.toUpperCase()),
        ),
        type: fc.oneof(
          { weight: 4, arbitrary: fc.constant('main') },
          { weight: 1, arbitrary: fc.constantFrom('ai_languageModel', 'ai_tool') },
          { weight: 1, arbitrary: prototypeName },
        ),
        targets: fc.array(
          fc.array(
            fc.record({
              node: fc.oneof(fc.constantFrom(...names, 'missing'), prototypeName),
              type: fc.constantFrom('main', 'ai_tool', '__proto__'),
              index: fc.integer({ min: 0, max: 3 }),
            }),
            { maxLength: 4 },
          ),
          { maxLength: 3 },
        ),
      }),
      { maxLength: 8 },
    )
    .map((list) => `{${list.map((c) => `${JSON.stringify(c.source)}:{${JSON.stringify(c.type)}:${JSON.stringify(c.targets)}}`).join(',')}}`);

/** A workflow of 1 to 12 such nodes and connections among them (and to missing ones), as JSON text. */
export const smallWorkflow = fc
  .array(workflowNode, { minLength: 1, maxLength: 12 })
  .chain((nodes) => connectionsText(nodes.map((n) => n.name)).map((connections) => `{"nodes":${JSON.stringify(nodes)},"connections":${connections}}`));

/** Graphs at the size the tools take: a chain listed from its end, or one node with many connections to a missing one. */
export const largeWorkflow = fc.oneof(
  fc.integer({ min: 100, max: 2_700 }).map((n) => {
    const nodes = Array.from({ length: n }, (_, i) => ({
      name: `n${i}`,
      type: i === 0 ? 'n8n-nodes-base.manualTrigger' : 'n8n-nodes-base.noOp',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    }));
    const connections = Object.fromEntries(
      Array.from({ length: n - 1 }, (_, i) => [`n${n - 2 - i}`, { main: [[{ node: `n${n - 1 - i}`, type: 'main', index: 0 }]] }]),
    );
    return JSON.stringify({ nodes, connections });
  }),
  fc.tuple(fc.integer({ min: 1, max: 1_200 }), fc.integer({ min: 1, max: 5_500 })).map(([length, count]) => {
    const long = 'L'.repeat(length);
    const targets = Array.from({ length: count }, () => ({ node: 'x', type: 'main', index: 0 }));
    return JSON.stringify({
      nodes: [{ name: long, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} }],
      connections: { [long]: { main: [targets] } },
    });
  }),
);

/** Runs `work` on the workflow's text, as a tool would; checks the bound, the answer size, names kept and prototypes. */
export function holds(text: string, work: (workflow: unknown) => unknown, limits: (workflow: unknown) => string | null = workflowOverLimit): void {
  const started = Date.now();
  const workflow = JSON.parse(text);
  const refusal = limits(workflow);
  const answer = refusal ?? work(workflow);
  expect(Date.now() - started, text.slice(0, 200)).toBeLessThan(HANG_MS);
  expect(JSON.stringify(answer).length).toBeLessThan(answerBound(text.length));
  expect(pollutedSince(pristine), text.slice(0, 300)).toEqual([]);
}

/** The names of a workflow's nodes, sorted. */
export const namesOf = (workflow: unknown): string[] => ((workflow as { nodes?: { name?: unknown }[] }).nodes ?? []).map((n) => String(n?.name)).sort();

/**
 * The two properties a workflow function of the core is fuzzed with, as tests of the calling `describe`:
 * any small hostile workflow (`work` may assert more, e.g. names kept), and graphs at the size limits.
 * Each records how many workflows it tried (test/support/fuzzReporter.ts adds them up).
 */
export function fuzzWorkflowFunction(claim: string, work: (workflow: unknown) => unknown): void {
  const property = (name: string, workflows: fc.Arbitrary<string>, numRuns: number) =>
    it(`${name} (${numRuns} workflows)`, ({ task }) => {
      let tried = 0;
      fc.assert(
        fc.property(workflows, (text) => {
          tried++;
          holds(text, work);
        }),
        { numRuns, reporter: clippedReport },
      );
      task.meta.inputs = tried;
    }, 1_800_000);
  property(claim, smallWorkflow, RUNS * 3);
  property('bounds the work and the answer on graphs at the size limits', largeWorkflow, Math.max(5, Math.round(RUNS / 100)));
}
