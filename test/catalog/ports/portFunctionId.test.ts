import { describe, expect, it } from 'vitest';
import { N8N_PORT_FUNCTIONS } from '../../../src/catalog/ports/n8nPortFunctions';
import { portFunctionId } from '../../../src/catalog/ports/portFunctionId';
import { n8nSpecs } from '../../support/n8nCatalog';

describe('portFunctionId', () => {
  it('is the same for the same text, and differs for a one-character change', () => {
    const expression = "={{ ((parameters) => parameters.mode === 'rules' ? ['main', 'main'] : ['main'])($parameter) }}";
    expect(portFunctionId(expression)).toBe(portFunctionId(expression));
    expect(portFunctionId(expression)).not.toBe(portFunctionId(expression.replace("'rules'", "'rulez'")));
    expect(portFunctionId(expression)).toMatch(/^[0-9a-z]{1,11}$/);
  });

  it('keeps its values: catalogs already in KV name the functions bundled with the Worker by them', () => {
    expect([portFunctionId(''), portFunctionId('["main"]'), portFunctionId('={{ ["main"] }}')]).toEqual(['wvjl67o803', 'ofhimzdx8t', 'sypmtjfi9q']);
  });

  it('finds, for every computed port of the nodes imported from n8n, the function bundled under that id', () => {
    const ids = n8nSpecs.flatMap((spec) => Object.values(spec.dynamic_ports ?? {}));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(Object.hasOwn(N8N_PORT_FUNCTIONS, id), id).toBe(true);
  });
});
