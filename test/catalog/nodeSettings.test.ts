import { describe, expect, it } from 'vitest';
import { NODE_SETTINGS, SETTINGS_PLACE } from '../../src/catalog/nodeSettings';
import { workflowBody } from '../../src/n8n/workflowBody';

describe('the node settings', () => {
  it('are keys n8n’s public API takes on a node, each once', () => {
    const node = { name: 'Filter', type: 'n8n-nodes-base.filter', typeVersion: 2.3, parameters: {}, position: [0, 0] };
    const set = Object.fromEntries(NODE_SETTINGS.map((s) => [s.name, s.default_value === '' ? 'a note' : s.default_value]));
    const [sent] = (workflowBody({ name: 'w', nodes: [{ ...node, ...set }], connections: {} }).nodes as Record<string, unknown>[])!;
    expect(Object.keys(sent!)).toEqual(expect.arrayContaining(Object.keys(set)));
    expect(new Set(NODE_SETTINGS.map((s) => s.name)).size).toBe(NODE_SETTINGS.length);
  });

  it('say each what it is, its default, and its choices with what each does', () => {
    for (const s of NODE_SETTINGS) {
      expect(s.description.length, s.name).toBeGreaterThan(15);
      expect(s.default_value, s.name).toBeDefined();
      expect(s.enum_descriptions?.length ?? 0, s.name).toBe(s.enum_values?.length ?? 0);
    }
    expect(NODE_SETTINGS.find((s) => s.name === 'onError')!.enum_values).toEqual(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput']);
    expect(SETTINGS_PLACE).toMatch(/beside "parameters"/);
  });
});
