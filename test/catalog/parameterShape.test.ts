import { describe, expect, it } from 'vitest';
import { N8N_STRUCTURED_TYPES } from '../../src/catalog/n8nStructuredTypes';
import { fieldLine, parameterShape, structuredTables } from '../../src/catalog/parameterShape';
import type { Parameter } from '../../src/catalog/nodeSpec';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, n8nSpecs, node } from '../support/n8nCatalog';

const parameterOf = (subtype: string, version: number, name: string): Parameter =>
  n8nSpecs.find((s) => s.subtype === subtype && s.type_versions?.includes(version))!.parameters.find((p) => p.name === name)!;

describe('structured parameter shapes', () => {
  it('gives a filter a template the validator takes, with the filter version of each typeVersion', () => {
    const shape = parameterShape(parameterOf('n8n-nodes-base.if', 2.2, 'conditions')) as {
      value: unknown;
      options_version_by_type_version: Record<string, number>;
    };
    expect(validateNode(node('If', 'if', 2.3, { conditions: shape.value }), n8nCatalog).errors).toEqual([]);
    expect(shape.options_version_by_type_version).toEqual({ '2': 1, '2.1': 1, '2.2': 2, '2.3': 3 });
  });

  it('gives an assignment collection a template the validator takes', () => {
    const shape = parameterShape(parameterOf('n8n-nodes-base.set', 3.4, 'assignments')) as { value: unknown };
    expect(validateNode(node('Set', 'set', 3.4, { assignments: shape.value }), n8nCatalog).errors).toEqual([]);
  });

  it('writes a fixed collection’s groups as lists where they are, each sub-field with its type, choices, default and condition', () => {
    const shape = parameterShape(parameterOf('n8n-nodes-base.if', 1, 'conditions')) as Record<string, Record<string, string>[]>;
    expect(Object.keys(shape)).toEqual(['boolean', 'dateTime', 'number', 'string']);
    expect(shape.string).toHaveLength(1);
    expect(shape.string![0]!.value1).toBe('string — The value to compare with the second one');
    expect(shape.string![0]!.operation).toMatch(/^"contains" \| .*"regex".* = "equal" — Operation to decide/);
    const single = parameterShape(parameterOf('n8n-nodes-base.webhook', 2, 'options')) as Record<string, unknown>;
    expect(single.responseCode).toEqual({
      values: { responseCode: expect.stringContaining('= 200'), customCode: expect.stringContaining('(when responseCode=customCode)') },
    });
  });

  it('gives a resource locator a mode to write by hand (not "list"), with each mode’s pattern', () => {
    const shape = parameterShape(parameterOf('n8n-nodes-base.slack', 2.3, 'channelId')) as {
      value: { mode: string; value: string };
      modes: { name: string; pattern?: string }[];
    };
    expect(shape.value).toEqual({ __rl: true, mode: 'id', value: 'C0122KQ70S7E' });
    expect(shape.modes.map((m) => m.name)).toEqual(['list', 'id', 'url']);
    expect(shape.modes[1]!.pattern).toBe('[a-zA-Z0-9]{2,}');
  });

  it('marks choices n8n loads at run time', () => {
    expect(fieldLine({ name: 'x', type: 'enum', required: true, description: '', dynamic_options: true })).toBe(
      'required choice loaded from the service at run time',
    );
  });

  it("adds n8n's hint to its own builder, which names what a run-time list holds", () => {
    const fallback = {
      name: 'fallbackOutput',
      type: 'enum',
      required: false,
      description: '',
      dynamic_options: true,
      default_value: 'none',
      hint: "Set this to 'extra'",
    } as const;
    expect(fieldLine(fallback)).toBe(`choice loaded from the service at run time = "none" — Set this to 'extra'`);
  });

  it('lists the tables once, only those the parameters use: filter operations that compare and those that stand alone', () => {
    const tables = structuredTables([parameterOf('n8n-nodes-base.switch', 3.2, 'rules')]) as {
      filter: { operators: Record<string, { compare: string[]; alone: string[] }> };
    };
    expect(Object.keys(tables)).toEqual(['filter']);
    expect(Object.keys(tables.filter.operators)).toEqual(N8N_STRUCTURED_TYPES.filter.operators.map((o) => o.type));
    expect(tables.filter.operators.string!.alone).toEqual(['exists', 'notExists', 'empty', 'notEmpty']);
    expect(tables.filter.operators.boolean!.alone).toContain('true');
    expect(tables.filter.operators.number!.compare).toContain('gte');
    expect(structuredTables([{ name: 'x', type: 'string', required: false, description: '' }])).toEqual({});
  });
});
