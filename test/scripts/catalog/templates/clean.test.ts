import { describe, expect, it } from 'vitest';
import { credentialNeeds, describedAs, fingerprint, isWorkflow, plainText, templateId, templateWorkflow } from '../../../../scripts/catalog/templates/clean';

/** A workflow as an n8n export has it: credentials with ids, pinned data, instance settings, metadata. */
const exported = (): Record<string, any> & { nodes: Record<string, any>[]; connections: Record<string, unknown> } => ({
  id: 'x1',
  name: 'Exported',
  active: true,
  meta: { instanceId: 'abc' },
  pinData: { Fetch: [{ json: { secret: 'pinned' } }] },
  settings: { executionOrder: 'v1', timezone: 'Europe/Berlin', errorWorkflow: '42', callerIds: '7,8' },
  nodes: [
    { id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: 'n2',
      name: 'Fetch',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      position: [200, 0],
      parameters: { url: 'https://example.com' },
      credentials: { httpHeaderAuth: { id: '9', name: "Ada's token" } },
      retryOnFail: true,
      extraField: 'unknown',
    },
    { id: 'n3', name: 'Later note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [600, 400], parameters: { content: 'Second' } },
    {
      id: 'n4',
      name: 'First note',
      type: 'n8n-nodes-base.stickyNote',
      typeVersion: 1,
      position: [-200, -100],
      parameters: { content: '## Fetch a page\nGets **one** [page](https://x.y).' },
    },
  ],
  connections: { Start: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] } },
});

describe('a workflow made a template', () => {
  it('is a workflow only with typed, named nodes and connections', () => {
    expect(isWorkflow(exported())).toBe(true);
    expect(isWorkflow({ nodes: [], connections: {} })).toBe(false);
    expect(isWorkflow({ nodes: [{ type: 'x' }], connections: {} })).toBe(false);
    expect(isWorkflow({ name: 'credential', type: 'slackApi', data: 'encrypted' })).toBe(false);
  });

  it("keeps what create_workflow takes: no credentials, pinned data, metadata, unknown fields or the author's instance settings", () => {
    const workflow = templateWorkflow(exported(), 'Exported');
    expect(Object.keys(workflow)).toEqual(['name', 'nodes', 'connections', 'settings']);
    expect(workflow.settings).toEqual({ executionOrder: 'v1', timezone: 'Europe/Berlin' });
    expect(workflow.nodes[1]).toEqual({
      id: 'n2',
      name: 'Fetch',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      position: [200, 0],
      parameters: { url: 'https://example.com' },
      retryOnFail: true,
    });
    expect(JSON.stringify(workflow)).not.toMatch(/Ada's token|pinned|"9"/);
  });

  it('lists the credential types each node was written with, never their names or ids', () => {
    expect(credentialNeeds(exported())).toEqual([{ node: 'Fetch', types: ['httpHeaderAuth'] }]);
  });

  it('is described by its own description, else by its first sticky note as plain text, else not at all', () => {
    expect(describedAs(exported())).toBe('Fetch a page Gets one page.');
    expect(describedAs({ ...exported(), description: 'Its **own** words' })).toBe('Its own words');
    expect(describedAs({ ...exported(), nodes: exported().nodes.slice(0, 2) })).toBeNull();
    expect(plainText('![logo](x.png) # Title\n\n- `code` and ~~gone~~')).toBe('Title - code and gone');
  });

  it('shares its fingerprint with copies that rename, move, re-id or annotate its nodes, not with changed ones', () => {
    const original = templateWorkflow(exported(), 'Exported');
    const copy = exported();
    copy.nodes = copy.nodes.slice(0, 2).map((n, i) => ({ ...n, id: `other-${i}`, name: `${n.name} copy`, position: [i * 500, 300] }));
    copy.nodes.push({ id: 'n9', name: 'New note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [0, 0], parameters: { content: 'Mine' } });
    copy.connections = { 'Start copy': { main: [[{ node: 'Fetch copy', type: 'main', index: 0 }]] } };
    expect(fingerprint(templateWorkflow(copy, 'Another name'))).toBe(fingerprint(original));
    const changed = exported();
    changed.nodes[1] = { ...changed.nodes[1]!, parameters: { url: 'https://example.org' } };
    expect(fingerprint(templateWorkflow(changed, 'Exported'))).not.toBe(fingerprint(original));
    const unconnected = { ...exported(), connections: {} };
    expect(fingerprint(templateWorkflow(unconnected, 'Exported'))).not.toBe(fingerprint(original));
  });

  it('has an id of 12 hex digits that depends on its repository and path only', () => {
    expect(templateId('a/b', 'x.json')).toMatch(/^[0-9a-f]{12}$/);
    expect(templateId('a/b', 'x.json')).toBe(templateId('a/b', 'x.json'));
    expect(templateId('a/b', 'y.json')).not.toBe(templateId('a/b', 'x.json'));
  });
});
