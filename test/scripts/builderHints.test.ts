import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hintInWorkflowJson } from '../../scripts/catalog/n8n/builderHints';
import { importNodes } from '../../scripts/catalog/n8n/importNodes';
import type { N8nNode } from '../../scripts/catalog/n8n/mapNode';
import type { Parameter } from '../../src/catalog/nodeSpec';

/** Real n8n descriptions (n8n-nodes-base / nodes-langchain 2.41) with their builder hints: IF, Switch, Merge, Filter, AI Agent, HTTP Request… */
const packages = ['test/fixtures/n8n/nodes.json', 'test/fixtures/n8n/flowNodes.json'].flatMap((file) =>
  Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, N8nNode[]>).map(([typePrefix, nodes]) => ({ typePrefix, nodes })),
);
const specs = importNodes(packages).specs;

/** The notation of n8n's TypeScript workflow SDK, which no tool here takes. */
const SDK = /\.on(True|False|Case)\(|(?<!\$)\bexpr\(|nextBatch\(|newCredential\(|\.output\([^)]*\)\.to\(|`subnodes|\bSDK\b/;

/** Every hint and choice meaning of a spec, at any depth. */
function texts(parameters: Parameter[]): string[] {
  return parameters.flatMap((p) => [p.hint ?? '', ...(p.enum_descriptions ?? []), ...texts(p.options ?? [])]);
}

describe('builder hints in workflow JSON', () => {
  it('leaves no SDK notation in any hint of the real descriptions, which are full of it', () => {
    expect(JSON.stringify(packages)).toMatch(SDK);
    const all = specs.flatMap((s) => [s.builder_hint ?? '', ...(s.related_nodes ?? []).map((r) => r.hint), ...texts(s.parameters)]);
    expect(all.filter((text) => SDK.test(text))).toEqual([]);
  });

  it('says in connections, expression strings and JSON what the SDK says in calls', () => {
    const hint = (subtype: string, name?: string) => {
      const spec = specs.find((s) => s.subtype === `n8n-nodes-base.${subtype}`)!;
      return name === undefined ? spec.builder_hint! : spec.parameters.find((p) => p.name === name)!.hint!;
    };
    expect(hint('if')).toMatch(/main output 0 .*"connections".*main output 1/);
    expect(hint('switch', 'rules')).toMatch(/rule i is main output i/);
    // The filter's version depends on the typeVersion: the answer's shape gives it, the hint no longer says one of its own.
    expect(hint('filter', 'conditions')).toContain('"leftValue": "={{ $json.field }}"');
    expect(hint('filter', 'conditions')).not.toMatch(/version/);
    expect(hint('switch', 'options')).toBeUndefined();
    const fallback = specs.find((s) => s.subtype === 'n8n-nodes-base.switch')!.parameters.find((p) => p.name === 'options')!.options!;
    expect(fallback.find((o) => o.name === 'renameFallbackOutput')!.hint).toContain('`"fallbackOutput": "extra"`');
    const agent = specs.find((s) => s.subtype === '@n8n/n8n-nodes-langchain.agent')!;
    expect(agent.builder_hint).toMatch(/ai_languageModel.*"connections"/);
    expect(agent.parameters.filter((p) => p.name === 'text').map((p) => p.hint)).toContainEqual(expect.stringContaining('"={{ $json.input }}"'));
  });

  it('leaves out a sentence of SDK code no rule rewrites, and keeps the others', () => {
    expect(
      hintInWorkflowJson(
        'Output 0 is Pass. Use .output(index).to() to connect from a specific output. @example node.output(1).to(failNode). One output otherwise.',
      ),
    ).toBe('Output 0 is Pass. In "connections", each output is wired from its index in the node\'s "main" list (main[0] is output 0). One output otherwise.');
    expect(hintInWorkflowJson('Wire it with `.input(2)`. Nothing else.')).toBe('Nothing else.');
    expect(hintInWorkflowJson("Set `mode: 'list'` or { a: 1, b: ['x'] }, never { a, b }.")).toBe(
      'Set `"mode": "list"` or {"a": 1, "b": ["x"]}, never { a, b }.',
    );
  });
});
