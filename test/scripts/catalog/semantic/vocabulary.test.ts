import { describe, expect, it } from 'vitest';
import { catalogWords, FUNCTION_WORDS, vocabulary } from '../../../../scripts/catalog/semantic/vocabulary';
import type { NodeSpec } from '../../../../src/catalog/nodeSpec';

const node = (subtype: string, display_name: string, description: string, parameters: NodeSpec['parameters'] = []): NodeSpec => ({
  node_type: 'ACTION_NODE',
  subtype,
  version: '1',
  display_name,
  description,
  aliases: [],
  categories: ['Finance'],
  source: 'n8n',
  documentation_url: null,
  parameters,
  input_ports: [],
  output_ports: [],
  examples: [],
});

describe('catalogWords', () => {
  it("counts per node the words of the fields a node's vector pools, not its parameters", () => {
    const words = catalogWords([
      node('n8n-nodes-base.invoiceNinja', 'Invoice Ninja', 'Create invoices', [
        { name: 'timezone', display_name: 'Timezone', type: 'string', required: false, description: '' } as NodeSpec['parameters'][number],
      ]),
      node('n8n-nodes-base.xero', 'Xero', 'Create invoices and contacts'),
    ]);
    expect(words.get('invoices')).toBe(2);
    expect(words.get('finance')).toBe(2);
    expect(words.get('xero')).toBe(1);
    expect(words.get('ninja')).toBe(1);
    expect(words.has('timezone')).toBe(false);
  });
});

describe('vocabulary', () => {
  it("takes the catalog's words, then the most frequent ones up to the size, sorted, without function words or non-words", () => {
    expect(vocabulary(['xero', 'the', 'invoice', 'x', '2fa'], ['with', 'time', 'people', 'year'], 4)).toEqual(['invoice', 'people', 'time', 'xero']);
    expect(vocabulary(['b', 'aa'], [], 10)).toEqual(['aa']);
    for (const word of ['the', 'with', 'whose']) expect(FUNCTION_WORDS.has(word)).toBe(true);
  });
});
