import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../src/tools/tool';
import { SIZE_LIMITS, withinLimits } from '../../../src/tools/validation/withinLimits';
import { LIMITS } from '../../../src/workflows/limits';
import { loadCatalog } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callInSession } from '../../support/tools';

describe('withinLimits', () => {
  it('lets a call within the limits on, and refuses one past them with the sentence and what was not done', () => {
    expect(withinLimits(null)).toBeUndefined();
    expect(() => withinLimits('Too big.')).toThrow(new ToolError('Too big. Nothing was checked.'));
    expect(() => withinLimits('Too big.', 'Nothing was saved.')).toThrow(new ToolError('Too big. Nothing was saved.'));
  });

  it('states the limits the tools check, with their numbers', () => {
    expect(SIZE_LIMITS).toContain(`${LIMITS.nodes.toLocaleString('en-US')} nodes`);
    expect(SIZE_LIMITS).toContain(`${LIMITS.depth} levels of nesting`);
  });

  it('is how the validation tools refuse what carries more than they check, naming the limit', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const names = Array.from({ length: 30_000 }, (_, i) => `N${i}`);
    const chain = {
      nodes: names.map((name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1 })),
      connections: Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1] }]] }])),
    };
    expect(JSON.stringify(chain).length).toBeLessThan(4_000_000);
    for (const tool of ['validate_workflow', 'autofix_workflow']) {
      const refused = await callInSession(tool, { workflow: chain });
      expect(refused.isError).toBe(true);
      expect(refused.text).toBe('Error: This workflow has 30,000 nodes; the tools check at most 2,500. Nothing was checked.');
    }
    let deep: unknown = 'x';
    // Past the tools' 150 levels, within the 200 a request body may nest (src/protocol/jsonDepth.ts).
    for (let i = 0; i < 160; i++) deep = { a: deep };
    const node = await callInSession('validate_node', { type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { deep } });
    expect(node.isError).toBe(true);
    expect(node.text).toMatch(
      /^Error: parameters\.deep\.a.* holds objects and lists more than 150 deep within each other; the tools take at most 150\. Nothing was checked\.$/,
    );
  });
});
