import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { fromJson } from '../../support/specialNames';
import { callInSession } from '../../support/tools';

/** validate_node in the session object, over a catalog of real n8n descriptions in KV. */
describe('validate_node', () => {
  it('refuses a typeVersion the node does not have, naming those it has', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const node = await callInSession('validate_node', { type: 'n8n-nodes-base.if', typeVersion: 3 });
    expect(node.structuredContent).toMatchObject({
      valid: false,
      errors: [{ code: 'invalid_type_version', message: expect.stringContaining('1, 2, 2.1, 2.2, 2.3') }],
    });
  });

  it('names the node after its type when no name is given', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const node = await callInSession('validate_node', { type: 'n8n-nodes-base.if', typeVersion: 1, parameters: { noSuchParameter: 1 } });
    expect(node.structuredContent).toMatchObject({ valid: true, warnings: [{ node: 'if', code: 'unknown_parameter', path: 'parameters.noSuchParameter' }] });
  });

  it('takes a parameter named "__proto__" as a parameter like any other', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const node = await callInSession('validate_node', {
      name: '__proto__',
      type: 'n8n-nodes-base.if',
      typeVersion: 1,
      parameters: fromJson([['__proto__', { a: 1 }]]),
    });
    expect(node.structuredContent).toMatchObject({ valid: true, warnings: [{ node: '__proto__', code: 'unknown_parameter', path: 'parameters.__proto__' }] });
  });
});
