import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { savedSampleWorkflow, withN8n } from '../../support/hostile';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, fakeN8n, fakeN8nApi, savedN8nWorkflow, sentToN8n } from '../../support/tools';

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

describe('a change made in n8n by someone else meanwhile', () => {
  it('is not overwritten by a save: the edit is refused, naming what changed, and nothing of it is written', async () => {
    const id = await savedSampleWorkflow(withN8n());
    // n8n answers the edit's first read late; meanwhile someone renames the workflow in n8n itself.
    await fakeN8n('config', { faults: [{ request: `GET /api/v1/workflows/${id}`, times: 1, delayMs: 400 }] });
    const editing = callDirect('edit_workflow', { id, operations: [{ type: 'moveNode', name: '__proto__', position: [5, 5] }] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const theirs = await savedN8nWorkflow(id);
    await fakeN8nApi('PUT', `/workflows/${id}`, { ...(await content(id)), name: 'Renamed in n8n', active: undefined, tags: undefined });
    const answer = await editing;
    expect(answer.text).toMatch(
      /The save step failed: workflow \w+ was changed in n8n by someone else while this call worked on it \(versionId .* → .*: the name \(.* → "Renamed in n8n"\)\), and their change is not overwritten\. Nothing was changed\./,
    );
    expect((await content(id)).name).toBe('Renamed in n8n');
    expect((await savedN8nWorkflow(id)).versionId).not.toBe(theirs.versionId);
  });

  it('is not overwritten by a put-back: the error names the clash and the kept version', async () => {
    const id = await savedSampleWorkflow(withN8n());
    // The tags step fails late; meanwhile someone renames the workflow in n8n itself.
    await fakeN8n('config', { faults: [{ request: `PUT /api/v1/workflows/${id}/tags`, status: 400, times: 1, delayMs: 400 }] });
    const editing = callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'moveNode', name: '__proto__', position: [5, 5] },
        { type: 'addTag', tag: 'late' },
      ],
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await fakeN8nApi('PUT', `/workflows/${id}`, { ...(await content(id)), name: 'Renamed meanwhile', active: undefined, tags: undefined });
    const answer = await editing;
    const [kept] = await versions(id);
    expect(answer.text).toMatch(
      new RegExp(
        `The tags step failed: .*Workflow ${id} was then changed by someone else \\(the name .*"Renamed meanwhile"\\)\\), so it was not put back over their change: version ${kept!.version} of its history`,
      ),
    );
    expect((await content(id)).name).toBe('Renamed meanwhile');
  });

  it('from a copy read before it: update_workflow refuses the copy, naming what changed since', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const copy = (await callDirect('get_workflow', { id })).json;
    await callDirect('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Changed since' }] });
    const answer = await callDirect('update_workflow', { workflow: { ...copy, name: 'From the old copy' } });
    expect(answer.text).toMatch(
      new RegExp(
        `Workflow ${id} has changed since the copy you started from \\(versionId ${copy.versionId}; .*: since then, the name \\(.* → "Changed since"\\)`,
      ),
    );
    expect((await content(id)).name).toBe('Changed since');
  });
});

describe('a change that would change nothing', () => {
  it('sends n8n nothing and keeps no version', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const before = await versions(id);
    const { result, sent } = await sentToN8n(() => callDirect('deactivate_workflow', { id }));
    expect(result.json.unchanged).toMatch(/^It was inactive already: nothing was changed, and no version was kept\.$/);
    expect(sent.filter((r) => r.method !== 'GET')).toEqual([]);
    const copy = (await callDirect('get_workflow', { id })).json;
    expect((await callDirect('update_workflow', { workflow: copy })).json.unchanged).toMatch(/nothing was written, and no version was kept/);
    expect(await versions(id)).toEqual(before);
  });
});
