/**
 * n8n makes an AI-agent tool of every node marked `usableAsTool` at load time (`n8n-nodes-base.slack` →
 * `n8n-nodes-base.slackTool`): no input, one ai_tool output, a tool description first. Those types
 * are not in nodes.json but are in workflows, so the importer derives them the way n8n does.
 */
import type { N8nNode, N8nProperty } from './mapNode.ts';

export function toolVariant(node: N8nNode): N8nNode | null {
  if (!node.usableAsTool) return null;
  const properties = node.properties ?? [];
  const decides = properties.some((p) => p.name === 'resource' || p.name === 'operation');
  const description: N8nProperty = {
    displayName: 'Description',
    name: 'toolDescription',
    type: 'string',
    default: node.description ?? '',
    required: true,
    description: 'Explain to the LLM what this tool does; a good, specific description lets it choose the tool well',
    ...(decides ? { displayOptions: { show: { descriptionType: ['manual'] } } } : {}),
  };
  const descriptionType: N8nProperty = {
    displayName: 'Tool Description',
    name: 'descriptionType',
    type: 'options',
    default: 'auto',
    options: [
      { name: 'Set Automatically', value: 'auto', description: 'From the resource and operation' },
      { name: 'Set Manually', value: 'manual', description: 'Written by you' },
    ],
  };
  const { usableAsTool: _, webhooks: __, ...rest } = node;
  return {
    ...rest,
    toolOf: node.name,
    name: `${node.name}Tool`,
    displayName: `${node.displayName} Tool`,
    group: (node.group ?? []).filter((g) => g !== 'trigger'),
    inputs: [],
    outputs: ['ai_tool'],
    outputNames: ['Tool'],
    properties: [...(decides ? [descriptionType] : []), description, ...properties],
    codex: { ...node.codex, categories: ['AI'], subcategories: { AI: ['Tools'], Tools: ['Other Tools'] } },
  };
}
