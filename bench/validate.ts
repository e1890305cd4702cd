/**
 * What validate_workflow costs, on a 30-node workflow made of the catalog's own example nodes (triggers,
 * IF/Switch/Merge, HTTP Request, Code, app nodes, an AI agent with model, memory and tools), chained.
 *
 *   in Node:    the pure validator (src/workflows) warm: p50/p99 over many runs, and its cold first run
 *   in workerd: `npm run dev`'s Worker (wrangler dev, rate limits off); server CPU per tools/call of
 *               validate_workflow beside server_info's in the same session and run (the difference is
 *               validation: KV reads through the isolate cache, argument parsing, the rules), and the
 *               size of the answer in characters and estimated tokens (characters / 4)
 *
 *   npm run bench:validate [-- --runs N]     Writes bench/results/validate.json.
 *   Needs the built catalog (.catalog/entries.json): `npm run dev` or `npm run catalog:build` makes it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { NodeSpec } from '../src/catalog/nodeSpec.ts';
import { catalogOf } from '../src/workflows/nodeCatalog.ts';
import { validateWorkflow } from '../src/workflows/validateWorkflow.ts';
import { loadSpecs } from '../scripts/lib/nodeCatalog.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { serverCpuMs } from './lib/cpu.ts';
import { exampleWorkflow } from './lib/exampleWorkflow.ts';
import { openSession } from './lib/mcpClient.ts';
import { percentile, round } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '300' } } });
const RUNS = Number(args.runs);

function inNode(specs: NodeSpec[], workflow: unknown) {
  const catalog = catalogOf(specs);
  const coldStart = performance.now();
  const first = validateWorkflow(workflow, catalog);
  const coldMs = performance.now() - coldStart;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    validateWorkflow(workflow, catalog);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { result: first, coldMs: round(coldMs), p50Ms: round(percentile(times, 50), 3), p99Ms: round(percentile(times, 99), 3) };
}

async function inWorkerd(workflow: unknown) {
  const server = await startWranglerDev({ vars: { RATE_LIMITS: 'off' } });
  try {
    const session = await openSession({ url: `${server.url}/mcp`, apiKey: server.apiKey });
    let id = 1;
    const validate = async () => {
      const { result } = await session.request(id++, 'tools/call', { name: 'validate_workflow', arguments: { workflow } });
      if (result!.isError) throw new Error(`validate_workflow failed: ${JSON.stringify(result).slice(0, 300)}`);
      return result!;
    };
    const measure = async (call: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await call(); // warm: the isolate's catalog cache and the JIT
      const latencies: number[] = [];
      const cpuBefore = serverCpuMs();
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
      const cpu = cpuBefore === null ? null : (serverCpuMs()! - cpuBefore) / RUNS;
      latencies.sort((a, b) => a - b);
      return { serverCpuMsPerCall: cpu === null ? null : round(cpu, 2), latencyP50Ms: round(percentile(latencies, 50), 2) };
    };
    const answer = await validate();
    const validateCost = await measure(validate);
    const reference = await measure(() => session.call(id++));
    const answerChars = JSON.stringify(answer).length;
    return {
      validateWorkflow: validateCost,
      serverInfo: reference,
      validationCpuMs:
        validateCost.serverCpuMsPerCall !== null && reference.serverCpuMsPerCall !== null
          ? round(validateCost.serverCpuMsPerCall - reference.serverCpuMsPerCall, 2)
          : null,
      answer: { chars: answerChars, estimatedTokens: Math.round(answerChars / 4), valid: (answer.structuredContent as { valid: boolean }).valid },
    };
  } finally {
    await server.stop();
  }
}

const specs = loadSpecs();
const workflow = exampleWorkflow(specs);
const node = inNode(specs, workflow);
if (!node.result.valid) throw new Error(`the benchmark workflow should be valid: ${JSON.stringify(node.result.errors).slice(0, 500)}`);
console.log(`validate_workflow, ${workflow.nodes.length} nodes, ${RUNS} runs`);
console.log(`  Node (pure validator):  cold ${node.coldMs} ms, warm p50 ${node.p50Ms} ms, p99 ${node.p99Ms} ms`);
const workerd = await inWorkerd(workflow);
console.log(
  `  workerd (wrangler dev): server CPU per call ${workerd.validateWorkflow.serverCpuMsPerCall} ms (server_info ${workerd.serverInfo.serverCpuMsPerCall} ms: ` +
    `validation ≈ ${workerd.validationCpuMs} ms), latency p50 ${workerd.validateWorkflow.latencyP50Ms} ms (server_info ${workerd.serverInfo.latencyP50Ms} ms)`,
);
console.log(`  answer for the valid workflow: ${workerd.answer.chars} characters ≈ ${workerd.answer.estimatedTokens} tokens`);
mkdirSync('bench/results', { recursive: true });
const { result: _, ...nodeFigures } = node;
writeFileSync(
  'bench/results/validate.json',
  JSON.stringify({ date: new Date().toISOString(), nodes: workflow.nodes.length, runs: RUNS, node: nodeFigures, workerd }, null, 2) + '\n',
);
