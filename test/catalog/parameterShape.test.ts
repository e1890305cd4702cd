import { describe, expect, it } from 'vitest';
import { N8N_STRUCTURED_TYPES } from '../../src/catalog/n8nStructuredTypes';
import { filterVersionAt, meaningOf, parameterLine, parameterShape, structuredTables } from '../../src/catalog/parameterShape';
import type { Parameter } from '../../src/catalog/nodeSpec';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, n8nSpecs, node } from '../support/n8nCatalog';

const parameterOf = (subtype: string, version: number, name: string): Parameter =>
  n8nSpecs.find((s) => s.subtype === subtype && s.type_versions?.includes(version))!.parameters.find((p) => p.name === name)!;

describe('structured parameter shapes', () => {
  it('gives a filter a template the validator takes, with the one filter version n8n writes for the typeVersion described', () => {
    const conditions = parameterOf('n8n-nodes-base.if', 2.2, 'conditions');
    const shapeAt = (typeVersion: number) => parameterShape(conditions, { typeVersion }) as { value: { options: { version: number } } };
    expect(validateNode(node('If', 'if', 2.3, { conditions: shapeAt(2.3).value }), n8nCatalog).errors).toEqual([]);
    expect([2, 2.1, 2.2, 2.3].map((v) => shapeAt(v).value.options.version)).toEqual([1, 1, 2, 3]);
    expect([2, 2.1, 2.2, 2.3].map((v) => filterVersionAt(conditions, v))).toEqual([1, 1, 2, 3]);
    expect(JSON.stringify(shapeAt(2.2))).not.toContain('by_type_version');
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
      values: { responseCode: expect.stringContaining('= 200'), customCode: expect.stringContaining('(when responseCode is customCode)') },
    });
  });

  it('leaves out the fields that do not apply to what the answer describes', () => {
    const rules = parameterOf('n8n-nodes-base.switch', 3.4, 'options');
    const all = Object.keys(parameterShape(rules) as object);
    const some = Object.keys(parameterShape(rules, { applies: (f) => f.name !== 'ignoreCase' }) as object);
    expect(all).toContain('ignoreCase');
    expect(some).toEqual(all.filter((name) => name !== 'ignoreCase'));
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

  it('marks choices n8n’s editor loads, with those the description names', () => {
    expect(parameterLine({ name: 'x', type: 'enum', required: true, description: '', dynamic_options: true })).toBe(
      "required a choice n8n's editor loads when the node is opened",
    );
    expect(parameterLine({ name: 'x', type: 'enum', required: false, description: '', dynamic_options: true, enum_values: ['a'] })).toBe(
      `"a" | others n8n's editor loads`,
    );
  });

  it("says what a parameter is for: n8n's hint to its own builder, else its description, else a label that says more than its name", () => {
    const fallback: Parameter = {
      name: 'fallbackOutput',
      type: 'enum',
      required: false,
      description: '',
      dynamic_options: true,
      enum_values: ['none', 'extra'],
      default_value: 'none',
      hint: 'Set this to `"extra"` before wiring a catch-all branch',
    };
    expect(parameterLine(fallback)).toBe(`"none" | "extra" | others n8n's editor loads = "none" — Set this to \`"extra"\` before wiring a catch-all branch`);
    expect(
      meaningOf({ name: 'outputDataFrom', type: 'enum', required: false, description: 'Output Data From', display_name: 'Output Data From' }),
    ).toBeUndefined();
    expect(
      meaningOf({ name: 'advanced', type: 'boolean', required: false, description: 'Advanced', display_name: 'Fields To Match Have Different Names' }),
    ).toBe('Fields To Match Have Different Names');
    expect(meaningOf({ name: 'x', type: 'string', required: false, description: 'y'.repeat(200) })).toHaveLength(70);
  });

  it('calls required only what a workflow must set: n8n requires it and its default does not fill it in', () => {
    const required = (extra: Partial<Parameter>) =>
      parameterLine({ name: 'x', type: 'string', required: true, description: '', ...extra }).startsWith('required');
    expect(required({})).toBe(true);
    expect(required({ default_value: '' })).toBe(true);
    expect(required({ default_value: 'data' })).toBe(false);
    expect(required({ type: 'boolean', default_value: false })).toBe(false);
    expect(required({ type: 'enum', enum_values: ['SHA256', 'MD5'], default_value: 'SHA256' })).toBe(false);
    expect(required({ required: false })).toBe(false);
  });

  it('says when a field applies in words, leaving out what the answer has said', () => {
    const field: Parameter = {
      name: 'x',
      type: 'string',
      required: false,
      description: 'What x is',
      display_options: { show: { '/operation': ['send'], logic: ['a', 'b'], '@version': [{ _cnd: { gte: 2 } }] }, hide: { mode: [{ _cnd: { not: 'raw' } }] } },
    };
    expect(parameterLine(field)).toBe('string (when operation is send and logic is a or b, unless mode is not raw) — What x is');
    expect(parameterLine(field, { said: (key) => key === '/operation' })).toBe('string (when logic is a or b, unless mode is not raw) — What x is');
    expect(parameterLine(field, {}, { brief: true })).toBe('string — What x is');
  });

  it('lists the tables once, only those the parameters use: filter operations that compare and those that stand alone', () => {
    const tables = structuredTables([parameterOf('n8n-nodes-base.switch', 3.2, 'rules')], 3.2) as {
      filter: { operators: Record<string, { compare: string[]; alone: string[] }>; options: { version: unknown } };
    };
    // The filter version of the typeVersion described, not every one n8n knows.
    expect(tables.filter.options.version).toBe(2);
    expect(Object.keys(tables)).toEqual(['filter']);
    expect(Object.keys(tables.filter.operators)).toEqual(N8N_STRUCTURED_TYPES.filter.operators.map((o) => o.type));
    expect(tables.filter.operators.string!.alone).toEqual(['exists', 'notExists', 'empty', 'notEmpty']);
    expect(tables.filter.operators.boolean!.alone).toContain('true');
    expect(tables.filter.operators.number!.compare).toContain('gte');
    expect(structuredTables([{ name: 'x', type: 'string', required: false, description: '' }])).toEqual({});
  });
});
