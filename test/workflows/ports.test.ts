import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

const rule = (value: string) => ({
  conditions: {
    options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
    combinator: 'and',
    conditions: [{ id: value, leftValue: '={{ $json.kind }}', rightValue: value, operator: { type: 'string', operation: 'equals' } }],
  },
});

function switchWorkflow(options: Record<string, unknown>) {
  return {
    nodes: [
      node('Start', 'manualTrigger', 1),
      node('Switch', 'switch', 3.2, { rules: { values: [rule('a'), rule('b')] }, options }),
      node('Fallback', 'if', 2.2),
    ],
    connections: connect(['Start', 'Switch'], ['Switch', 'Fallback', 2]),
  };
}

describe('ports that parameters add or remove', () => {
  it('refuses a wired Switch fallback output that the options switched off, though its rules hold expressions', () => {
    const result = validateWorkflow(switchWorkflow({ fallbackOutput: 'none' }), n8nCatalog);
    expect(result.errors.map((f) => `${f.code}@${f.node}`)).toContain('output_index_out_of_range@Switch');
    expect(result.errors.find((f) => f.code === 'output_index_out_of_range')!.message).toContain('has 2 main outputs');
  });

  it('takes the fallback output where the options add it', () => {
    const result = validateWorkflow(switchWorkflow({ fallbackOutput: 'extra' }), n8nCatalog);
    expect(result.errors.map((f) => f.code)).not.toContain('output_index_out_of_range');
  });

  it('says nothing of the outputs when the count itself is an expression', () => {
    const workflow = switchWorkflow({ fallbackOutput: '={{ "none" }}' });
    expect(validateWorkflow(workflow, n8nCatalog).errors.map((f) => f.code)).not.toContain('output_index_out_of_range');
  });
});
