/**
 * A 30-node workflow made of the catalog's own example nodes (triggers, IF/Switch/Merge, HTTP Request,
 * Code, app nodes, an AI agent with model, memory and tools), chained: what the validation benchmarks
 * measure as a typical workflow.
 */
import type { NodeSpec } from '../../src/catalog/nodeSpec.ts';

/** Main-flow nodes, in order, then the agent's sub-nodes: types common in n8n users' workflows. */
const FLOW = [
  'n8n-nodes-base.manualTrigger',
  'n8n-nodes-base.httpRequest',
  'n8n-nodes-base.set',
  'n8n-nodes-base.if',
  'n8n-nodes-base.switch',
  'n8n-nodes-base.code',
  'n8n-nodes-base.merge',
  'n8n-nodes-base.filter',
  'n8n-nodes-base.splitOut',
  'n8n-nodes-base.aggregate',
  'n8n-nodes-base.sort',
  'n8n-nodes-base.limit',
  'n8n-nodes-base.removeDuplicates',
  'n8n-nodes-base.dateTime',
  'n8n-nodes-base.crypto',
  'n8n-nodes-base.wait',
  'n8n-nodes-base.googleSheets',
  'n8n-nodes-base.slack',
  'n8n-nodes-base.gmail',
  'n8n-nodes-base.notion',
  'n8n-nodes-base.airtable',
  'n8n-nodes-base.postgres',
  'n8n-nodes-base.telegram',
  'n8n-nodes-base.noOp',
  '@n8n/n8n-nodes-langchain.agent',
];
const SUB_NODES: [string, string][] = [
  ['@n8n/n8n-nodes-langchain.lmChatOpenAi', 'ai_languageModel'],
  ['@n8n/n8n-nodes-langchain.memoryBufferWindow', 'ai_memory'],
  ['@n8n/n8n-nodes-langchain.toolCalculator', 'ai_tool'],
  ['@n8n/n8n-nodes-langchain.toolHttpRequest', 'ai_tool'],
  ['n8n-nodes-base.slackTool', 'ai_tool'],
];

type WorkflowNode = { name: string; type: string; typeVersion: number; parameters: Record<string, unknown> };

/** Each type's example node, named uniquely, chained on its first main output; sub-nodes into the agent. */
export function exampleWorkflow(specs: NodeSpec[]) {
  const newest = (type: string) => {
    const spec = specs.filter((s) => s.subtype === type).sort((a, b) => Number(b.version) - Number(a.version))[0];
    if (!spec) throw new Error(`${type} is not in the catalog: build it with npm run catalog:build`);
    return spec.examples[0]!.output as WorkflowNode;
  };
  const nodes: WorkflowNode[] = [];
  const connections: Record<string, Record<string, { node: string; type: string; index: number }[][]>> = {};
  let previous: string | undefined;
  for (const [i, type] of FLOW.entries()) {
    const node = { ...newest(type), name: `${i + 1} ${type.split('.')[1]}` };
    nodes.push(node);
    if (previous) connections[previous] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
    previous = node.name;
  }
  const agent = previous!;
  for (const [type, kind] of SUB_NODES) {
    const node = { ...newest(type), name: `${nodes.length + 1} ${type.split('.')[1]}` };
    nodes.push(node);
    connections[node.name] = { [kind]: [[{ node: agent, type: kind, index: 0 }]] };
  }
  return { name: 'Benchmark: 30 nodes', nodes, connections };
}
