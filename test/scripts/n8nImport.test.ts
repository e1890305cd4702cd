import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importNodes } from '../../scripts/catalog/n8n/import';
import type { N8nNode } from '../../scripts/catalog/n8n/mapNode';

/** Real n8n node descriptions, a few of them: a trigger, an AI agent, a resource/operation node, IF. */
const fixture = JSON.parse(readFileSync('test/fixtures/n8n/nodes.json', 'utf8')) as Record<string, N8nNode[]>;
const packages = Object.entries(fixture).map(([typePrefix, nodes]) => ({ typePrefix, nodes }));
const result = importNodes(packages);
const spec = (subtype: string) => result.specs.find((s) => s.subtype === subtype)!;

describe('n8n import', () => {
  it('keeps each node’s newest version under its workflow type name, and says what it skipped', () => {
    expect(result.specs.map((s) => s.subtype)).toEqual([
      '@n8n/n8n-nodes-langchain.agent',
      '@n8n/n8n-nodes-langchain.toolCalculator',
      'n8n-nodes-base.if',
      'n8n-nodes-base.mailcheck',
      'n8n-nodes-base.scheduleTrigger',
    ]);
    expect(spec('@n8n/n8n-nodes-langchain.agent').version).toBe('3.1');
    expect(result.skipped.filter((s) => s.subtype === '@n8n/n8n-nodes-langchain.agent')).toHaveLength(2);
    expect(result.skipped.every((s) => /superseded by v/.test(s.reason))).toBe(true);
  });

  it('is repeatable: the same input gives byte-identical output', () => {
    expect(JSON.stringify(importNodes(packages).specs)).toBe(JSON.stringify(result.specs));
  });

  it('classifies by the rules', () => {
    expect(spec('n8n-nodes-base.scheduleTrigger').node_type).toBe('TRIGGER_NODE');
    expect(spec('@n8n/n8n-nodes-langchain.agent').node_type).toBe('AI_AGENT_NODE');
    expect(spec('@n8n/n8n-nodes-langchain.toolCalculator').node_type).toBe('TOOL_NODE');
    expect(spec('n8n-nodes-base.if').node_type).toBe('FLOW_NODE');
    expect(spec('n8n-nodes-base.mailcheck').node_type).toBe('EXTERNAL_ACTION_NODE');
  });

  it('reads ports from expressions, including ai_* connections', () => {
    const agent = spec('@n8n/n8n-nodes-langchain.agent');
    expect(agent.input_ports.map((p) => `${p.type}:${p.name}`)).toEqual([
      'main:main',
      'ai_languageModel:Chat Model',
      'ai_languageModel:Fallback Model',
      'ai_memory:Memory',
      'ai_tool:Tool',
      'ai_outputParser:Output Parser',
    ]);
    expect(agent.input_ports.find((p) => p.name === 'Chat Model')!.required).toBe(true);
    expect(spec('@n8n/n8n-nodes-langchain.toolCalculator').output_ports.map((p) => p.type)).toEqual(['ai_tool']);
    expect(spec('n8n-nodes-base.if').output_ports.map((p) => p.name)).toEqual(['true', 'false']);
    expect(spec('n8n-nodes-base.scheduleTrigger').input_ports).toEqual([]);
  });

  it('keeps the resource/operation structure and display conditions', () => {
    const mailcheck = spec('n8n-nodes-base.mailcheck');
    const resource = mailcheck.parameters.find((p) => p.name === 'resource')!;
    expect(resource.type).toBe('enum');
    expect(resource.enum_values).toContain('email');
    const operation = mailcheck.parameters.find((p) => p.name === 'operation')!;
    expect(operation.display_options?.show?.resource).toEqual(['email']);
    expect(operation.enum_values).toContain('check');
  });

  it('carries codex aliases, categories and the documentation URL as search terms', () => {
    const agent = spec('@n8n/n8n-nodes-langchain.agent');
    expect(agent.aliases).toContain('LangChain');
    expect(agent.categories).toEqual(expect.arrayContaining(['AI', 'Agents']));
    expect(agent.documentation_url).toMatch(/^https:\/\/docs\.n8n\.io\//);
  });

  it('writes a minimal workflow-JSON example for each node', () => {
    const example = spec('n8n-nodes-base.mailcheck').examples[0]!;
    expect(example.output).toMatchObject({ type: 'n8n-nodes-base.mailcheck', typeVersion: 1 });
  });
});
