import { env } from 'cloudflare:workers';
import fc from 'fast-check';

/**
 * Inputs for the property-based tests (`*.fuzz.test.ts`). FUZZ_RUNS sets the runs per property: a few hundred
 * in `npm test`, as many as you like with `npm run fuzz` (FUZZ_RUNS=20000 by default there).
 */
export const RUNS = Number((env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? '200');

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'mcp/getServerCapabilities',
  'mcp/executeTool',
];

/** A value of any JSON type, including the awkward ones: huge numbers, long and odd strings, deep nesting. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, 1.5, -1, 2 ** 53, ''),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1, max: 3000 }).map((depth) => nest(depth)),
  fc.integer({ min: 1000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A JSON-RPC message that may be right, or wrong in any one field. */
export const jsonRpcMessage: fc.Arbitrary<unknown> = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), anyJson),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), anyJson),
      method: fc.oneof(fc.constantFrom(...METHODS), anyJson),
      params: fc.oneof(
        fc.record({
          name: fc.constantFrom('server_info', 'search_nodes', 'get_node_types', 'nope'),
          arguments: fc.oneof(fc.dictionary(fc.string(), anyJson), anyJson),
        }),
        fc.record({ protocolVersion: fc.constantFrom('2025-06-18', '2024-11-05', 'x'), capabilities: anyJson, clientInfo: anyJson }),
        fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 5 }),
        anyJson,
      ),
      result: anyJson,
      error: anyJson,
    },
    { requiredKeys: [] },
  )
  .map((message) => message as unknown);

/** A request body: JSON-RPC messages and batches, other JSON, text that is not JSON. */
export const body: fc.Arbitrary<string> = fc.oneof(
  jsonRpcMessage.map((m) => JSON.stringify(m) ?? 'null'),
  fc.array(jsonRpcMessage, { maxLength: 4 }).map((b) => JSON.stringify(b)),
  anyJson.map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  jsonRpcMessage.map((m) => (JSON.stringify(m) ?? '').slice(0, -1)),
);

/** Long generated strings clipped to their start and length, so a counterexample stays readable. */
const clipped = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 100)}… (${v.length} characters)` : v));

/** fast-check's reporter for the hostile-input fuzzers: the shrunk counterexample with long strings clipped, and the error. */
export function clippedReport<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
  throw new Error(
    `Property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath}")\nCounterexample: ${clipped(details.counterexample)}\n${cause.message}`,
    { cause },
  );
}
