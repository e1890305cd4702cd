import { describe, expect, it } from 'vitest';
import { ReleaseNodes, type ReleaseTable } from '../../src/n8n/releaseTable';
import { autofix } from '../../src/workflows/autofix';
import { versionChoices } from '../../src/workflows/instanceVersions';
import { validateNode } from '../../src/workflows/validateNode';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

/** The validator's view with an instance of `release` behind it, by the committed table. */
const on = (release: string, table?: ReleaseTable) => ({ ...n8nCatalog, instance: new ReleaseNodes(release, table) });

const trialWorkflow = (setVersion: number) => ({
  nodes: [
    node('Webhook', 'webhook', 2, { path: 'orders', httpMethod: 'POST' }, { webhookId: '5f0c3a52-0000-4000-8000-000000000001' }),
    node('Edit Fields', 'set', setVersion, { assignments: { assignments: [{ id: 'a1', name: 'total', value: '={{ $json.body.total }}', type: 'number' }] } }),
  ],
  connections: connect(['Webhook', 'Edit Fields']),
});

describe('typeVersions against the instance’s release', () => {
  it('is an error naming the newest the instance has: Edit Fields 3.5 on n8n 1.123.81 (the trial)', () => {
    const result = validateWorkflow(trialWorkflow(3.5), on('1.123.81'));
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      {
        node: 'Edit Fields',
        path: 'typeVersion',
        code: 'type_version_not_on_instance',
        message: expect.stringMatching(
          /^Edit Fields \(Set\) typeVersion 3\.5 is not in n8n 1\.123\.81, the n8n this server drives \(it first shipped in n8n 2\.\d+\.\d+\)\. The newest it has is 3\.4: set "typeVersion": 3\.4/,
        ),
      },
    ]);
    expect(result.errors[0]!.message).toContain("Cannot read properties of undefined (reading 'execute')");
  });

  it('accepts what the instance has, and 3.5 on the catalog’s own release or with no instance', () => {
    expect(validateWorkflow(trialWorkflow(3.4), on('1.123.81')).errors).toEqual([]);
    expect(validateWorkflow(trialWorkflow(3.5), on('2.41.3')).errors).toEqual([]);
    expect(validateWorkflow(trialWorkflow(3.5), n8nCatalog).errors).toEqual([]);
  });

  it('validate_node too; a node the instance does not have at all is said so', () => {
    const set = { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 3.5, parameters: {} };
    expect(validateNode(set, on('1.123.81')).errors.map((e) => e.code)).toEqual(['type_version_not_on_instance']);
    const agent = { name: 'Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3, parameters: {} };
    const errors = validateNode(agent, on('1.0.0')).errors.filter((e) => e.code === 'type_version_not_on_instance');
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/n8n 1\.0\.0 has no version of AI Agent: use another node, or upgrade n8n\./)]);
  });

  it('is a warning, not an error, where the table cannot tell (between two releases read that differ)', () => {
    const table: ReleaseTable = { releases: ['1.100.0', '1.123.81'], types: { 'n8n-nodes-base.set': { 3: [0], 3.4: [1] } } };
    const result = validateWorkflow(trialWorkflow(3.4), on('1.110.0', table));
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => [w.code, w.message])).toContainEqual([
      'type_version_maybe_not_on_instance',
      expect.stringMatching(
        /^n8n 1\.110\.0, the n8n this server drives, may lack Edit Fields \(Set\) typeVersion 3\.4 \(it first shipped in n8n 1\.123\.81\).*set "typeVersion": 3/,
      ),
    ]);
  });

  it('leaves types the table does not know (community nodes) alone', () => {
    const table: ReleaseTable = { releases: ['1.0.0'], types: {} };
    expect(validateWorkflow(trialWorkflow(3.5), on('1.0.0', table)).errors).toEqual([]);
  });
});

describe('versionChoices (autofix_workflow’s typeVersion fix)', () => {
  it('on an instance, moves a version it lacks to the newest below that it has; without one, leaves a catalog version alone', () => {
    const fixed = autofix(trialWorkflow(3.5), on('1.123.81'));
    expect(fixed.fixes).toContainEqual(
      expect.objectContaining({
        kind: 'type_version',
        node: 'Edit Fields',
        applied: true,
        description: expect.stringMatching(/^typeVersion 3\.5 → 3\.4 \(n8n 1\.123\.81 has 3, 3\.1, 3\.2, 3\.3, 3\.4\)$/),
      }),
    );
    expect(fixed.after.errors.filter((e) => e.code === 'type_version_not_on_instance')).toEqual([]);
    expect(autofix(trialWorkflow(3.5), n8nCatalog).fixes.filter((f) => f.kind === 'type_version')).toEqual([]);
  });

  it('replaces what the catalog lacks or the instance surely lacks, not what the table cannot tell', () => {
    const table: ReleaseTable = { releases: ['1.100.0', '1.123.81'], types: { 'n8n-nodes-base.set': { 3: [0], 3.4: [1] } } };
    const choices = versionChoices(on('1.110.0', table), 'n8n-nodes-base.set')!;
    // 3.4: the table cannot tell for 1.110.0; 3: it has; 3.5: it surely has not; 9: the catalog has not.
    expect([choices.lacks(3.4), choices.lacks(3), choices.lacks(3.5), choices.lacks(9)]).toEqual([false, false, true, true]);
    expect(versionChoices(on('1.123.81'), 'n8n-nodes-base.set')!.lacks(3.5)).toBe(true);
    expect(versionChoices(n8nCatalog, 'n8n-nodes-base.nope')).toBeNull();
  });
});
