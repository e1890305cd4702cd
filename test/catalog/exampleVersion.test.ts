import { describe, expect, it } from 'vitest';
import { exampleAtVersion } from '../../src/catalog/exampleVersion';
import type { NodeSpec } from '../../src/catalog/nodeSpec';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, n8nSpecs } from '../support/n8nCatalog';

const switchV3 = n8nSpecs.find((s) => s.subtype === 'n8n-nodes-base.switch' && s.type_versions?.includes(3.4))!;
const condition = (version: number) => ({
  options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version },
  combinator: 'and',
  conditions: [{ id: 'c1', leftValue: '={{ $json.kind }}', rightValue: 'a', operator: { type: 'string', operation: 'equals' } }],
});
/** A Switch as real workflows write it at 3.2, whose filters run version 2 there. */
const parameters = { mode: 'rules', rules: { values: [{ outputKey: 'a', conditions: condition(2) }] }, options: {} };
const example: NodeSpec['examples'][number] = {
  name: 'Switch, as real workflows write it',
  description: 'x',
  parameters,
  output: { type: 'n8n-nodes-base.switch', typeVersion: 3.2, name: 'Switch', parameters, position: [0, 0] },
};
const versionsIn = (value: unknown) => [...JSON.stringify(value).matchAll(/"(typeVersion|version)":([\d.]+)/g)].map((m) => `${m[1]}=${m[2]}`);

describe('exampleAtVersion', () => {
  it('writes the node at the typeVersion described, and each filter in it (fixed-collection entries too) at its filter version', () => {
    const at = exampleAtVersion(example, switchV3, 3.4);
    expect(versionsIn(at.output)).toEqual(['typeVersion=3.4', 'version=3']);
    expect(versionsIn(at.parameters)).toEqual(['version=3']);
    expect(versionsIn(exampleAtVersion(example, switchV3, 3).output)).toEqual(['typeVersion=3', 'version=1']);
    expect(validateNode(at.output, n8nCatalog).errors).toEqual([]);
  });

  it('leaves an example alone without a typeVersion, or for another node', () => {
    expect(exampleAtVersion(example, switchV3, undefined)).toBe(example);
    const other = { ...example, output: { ...(example.output as object), type: 'n8n-nodes-base.if' } };
    expect(exampleAtVersion(other, switchV3, 3.4)).toBe(other);
  });
});
