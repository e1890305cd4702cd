import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { savedSampleWorkflow, withN8n } from '../../support/hostile';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, fakeN8n, savedN8nWorkflow } from '../../support/tools';

/**
 * A change n8n refuses at any step leaves the workflow as it was, and the history as it was: through
 * edit_workflow and update_workflow against the contract fake of n8n, whose faults refuse one request.
 */
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));
afterEach(() => fakeN8n('config', { faults: [] }));

const refuse = (request: string, skip = 0) => fakeN8n('config', { faults: [{ request, status: 400, times: 1, skip }] });
/** What n8n's copy of a workflow is, apart from what every save changes (versionId, updatedAt, its counters). */
async function content(id: string) {
  const { name, nodes, connections, settings, tags, active } = (await savedN8nWorkflow(id)) as Record<string, unknown>;
  return { name, nodes, connections, settings, tags, active };
}
const versions = async (id: string) => (await callDirect('list_workflow_versions', { id })).json.versions as { version: number; change: string }[];

describe('a change n8n refuses midway', () => {
  it('puts the workflow back (content, tags, active state) when the tags step is refused after the save, and names the step', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const before = await content(id);
    const history = await versions(id);
    await refuse(`PUT /api/v1/workflows/${id}/tags`);
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'updateName', name: 'Renamed' },
        { type: 'addTag', tag: 'refused' },
      ],
    });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(new RegExp(`The tags step failed: .*\\(400\\).*Workflow ${id} is as it was before this call\\.`));
    expect(await content(id)).toEqual(before);
    expect(await versions(id)).toEqual(history);
  });

  it('puts back content saved before an activation n8n refuses, leaving the workflow inactive', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const before = await content(id);
    await refuse(`POST /api/v1/workflows/${id}/activate`);
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'moveNode', name: '__proto__', position: [9, 9] }, { type: 'activate' }] });
    expect(answer.text).toMatch(/^Error: The activate step failed: /);
    expect(await content(id)).toEqual(before);
    expect(before.active).toBe(false);
  });

  it('says which kept version holds the workflow as it was when putting it back fails too', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const before = await content(id);
    // The tags step is refused, and then the put-back's save (the edit's own save goes through).
    await fakeN8n('config', {
      faults: [
        { request: `PUT /api/v1/workflows/${id}/tags`, status: 400, times: 1 },
        { request: `PUT /api/v1/workflows/${id}`, status: 400, times: 1, skip: 1 },
      ],
    });
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'updateName', name: 'Half done' },
        { type: 'addTag', tag: 'x' },
      ],
    });
    const [kept] = await versions(id);
    expect(answer.text).toMatch(
      new RegExp(
        `Putting workflow ${id} back failed too .*: version ${kept!.version} of its history is the workflow as it was; restore it with restore_workflow_version\\.`,
      ),
    );
    const restored = await callDirect('restore_workflow_version', { id, version: kept!.version });
    expect(restored.isError).toBe(false);
    expect(await content(id)).toEqual(before);
  });

  it('changes nothing when the version it would replace cannot be kept', async () => {
    // A workflow whose JSON does not compress below one stored value (random text): n8n holds it, this server cannot keep it.
    const noise = (n: number) => {
      const parts: string[] = [];
      for (let i = 0; i < n; i += 49_152) parts.push(btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(49_152)))));
      return parts.join('');
    };
    const code = (name: string) => ({ name, type: 'n8n-nodes-base.code', typeVersion: 2, position: [0, 0], parameters: { jsCode: `// ${noise(1_000_000)}` } });
    const response = await fetch(`${inject('n8nUrl')}/api/v1/workflows`, {
      method: 'POST',
      headers: { 'x-n8n-api-key': inject('n8nKey'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Big', nodes: [code('A'), code('B'), code('C')], connections: {}, settings: {} }),
    });
    const { id } = (await response.json()) as { id: string };
    const before = await content(id);
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Never' }], autofix: false });
    expect(answer.text).toMatch(
      new RegExp(
        `Workflow ${id} was not changed: the workflow is too large to keep a version of .*changes no workflow without keeping the version it replaces`,
      ),
    );
    expect(await content(id)).toEqual(before);
    expect(await versions(id)).toEqual([]);
  }, 60_000);
});
