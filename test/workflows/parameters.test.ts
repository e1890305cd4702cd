import { describe, expect, it } from 'vitest';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, node } from '../support/n8nCatalog';

const codes = (findings: { code: string; path?: string }[]) => findings.map((f) => `${f.code}:${f.path}`);
const ifV1 = (conditions: unknown) => node('If', 'if', 1, { conditions });

describe('fixed collections', () => {
  it('wants a list where n8n’s description says multipleValues, and one object elsewhere', () => {
    expect(codes(validateNode(ifV1({ string: { value1: 'a', value2: 'b' } }), n8nCatalog).errors)).toEqual(['invalid_shape:parameters.conditions.string']);
    const hook = (responseCode: unknown) => node('Hook', 'webhook', 2, { path: 'p', responseMode: 'onReceived', options: { responseCode } });
    expect(codes(validateNode(hook({ values: [{ responseCode: 201 }] }), n8nCatalog).errors)).toEqual(['invalid_shape:parameters.options.responseCode.values']);
    expect(validateNode(hook({ values: { responseCode: 201 } }), n8nCatalog).errors).toEqual([]);
  });

  it('refuses a misspelt sub-field, naming the one meant, and any other key of an entry: n8n drops it with its value', () => {
    const misspelt = validateNode(ifV1({ string: [{ valu1: '={{ $json.a }}', value2: 'b' }] }), n8nCatalog);
    expect(codes(misspelt.errors)).toEqual(['unknown_parameter:parameters.conditions.string[0].valu1']);
    expect(misspelt.errors[0]!.message).toContain('did you mean "value1"?');
    const unknown = validateNode(ifV1({ string: [{ value1: 'a', value2: 'b', comment: 'x' }] }), n8nCatalog);
    expect(codes(unknown.errors)).toEqual(['unknown_parameter:parameters.conditions.string[0].comment']);
    expect(unknown.errors[0]!.message).toContain('which takes "value1", "operation", "value2": n8n drops "comment"');
  });

  it('refuses a misspelt group name and a misspelling beside the sub-field it spells; a plain collection’s unknown option is a warning', () => {
    expect(codes(validateNode(ifV1({ strng: [{ value1: 'a' }] }), n8nCatalog).errors)).toEqual(['unknown_parameter:parameters.conditions.strng']);
    const both = validateNode(ifV1({ string: [{ value1: 'a', valu1: 'b' }] }), n8nCatalog);
    expect(codes(both.errors)).toEqual(['unknown_parameter:parameters.conditions.string[0].valu1']);
    const options = validateNode(node('Hook', 'webhook', 2, { path: 'p', responseMode: 'onReceived', options: { noteToSelf: true } }), n8nCatalog);
    expect(options.errors).toEqual([]);
    expect(codes(options.warnings)).toContain('unknown_parameter:parameters.options.noteToSelf');
  });

  it('warns of a list entry that sets none of the text fields it always has', () => {
    const merge = (values: unknown[]) =>
      node('Merge', 'merge', 3, { mode: 'combine', combineBy: 'combineByFields', advanced: true, mergeByFields: { values } });
    expect(codes(validateNode(merge([{}]), n8nCatalog).warnings)).toContain('empty_entry:parameters.mergeByFields.values[0]');
    expect(codes(validateNode(merge([{ field1: 'id' }]), n8nCatalog).warnings)).not.toContain('empty_entry:parameters.mergeByFields.values[0]');
  });
});

describe('resource locators', () => {
  const slack = (channelId: unknown) => node('Slack', 'slack', 2.3, { select: 'channel', channelId, text: 'hi' });

  it('takes a mode of "" (n8n runs the value as it is)', () => {
    expect(validateNode(slack({ __rl: true, mode: '', value: 'C1' }), n8nCatalog).errors).toEqual([]);
  });

  it('refuses a value its mode’s pattern (from n8n’s description) does not match, naming n8n’s message and an example', () => {
    const result = validateNode(slack({ __rl: true, mode: 'url', value: 'https://slack.com/C1' }), n8nCatalog);
    expect(codes(result.errors)).toEqual(['invalid_locator_value:parameters.channelId']);
    expect(result.errors[0]!.message).toContain('Not a valid Slack Channel URL (https://app.slack.com/client/');
    expect(validateNode(slack({ __rl: true, mode: 'url', value: 'https://app.slack.com/client/T1/C0556F47Z3A' }), n8nCatalog).errors).toEqual([]);
    expect(validateNode(slack({ __rl: true, mode: 'url', value: '={{ $json.url }}' }), n8nCatalog).errors).toEqual([]);
    // The catalog's examples write a value still to be filled in like this.
    expect(validateNode(slack({ __rl: true, mode: 'url', value: '<Channel>' }), n8nCatalog).errors).toEqual([]);
  });

  it('refuses a mode the parameter does not have', () => {
    expect(codes(validateNode(slack({ __rl: true, mode: 'idd', value: 'C1' }), n8nCatalog).errors)).toEqual(['invalid_option:parameters.channelId']);
  });
});
