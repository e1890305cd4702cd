import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSources } from '../../../../scripts/catalog/community/import';
import { validateCorpus, workflowDocuments } from '../../../../scripts/catalog/community/validateCorpus';
import type { NodeSpec } from '../../../../src/catalog/nodeSpec';
import { catalogOf } from '../../../../src/workflows/nodeCatalog';
import { writeFixturePackage } from './fixturePackage';

let dir: string;
let specs: NodeSpec[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'community-corpus-'));
  specs = importSources([{ from: { folder: writeFixturePackage(dir) }, verified: false }]).specs;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = (name: string, type: string, parameters: Record<string, unknown>) => ({ name, type, typeVersion: 1, position: [0, 0], parameters });

describe('validating real workflows that use community nodes', () => {
  it('finds the workflows in an export, a list, or a wrapper', () => {
    const workflow = { nodes: [], connections: {} };
    expect(workflowDocuments([workflow, { workflow }, { data: [workflow] }, { other: workflow }, 'x'])).toEqual([workflow, workflow, workflow]);
  });

  it('counts the community nodes it checks once the catalog has them, the errors it finds on them, and those on other nodes', () => {
    const workflows = [
      { nodes: [node('W', 'n8n-nodes-fixture.widget', { resource: 'item', operation: 'nope' }), node('U', 'n8n-nodes-absent.thing', {})] },
      { nodes: [node('S', 'n8n-nodes-base.set', {})] },
    ].map((w, i) => ({ source: `test@${i}`, nodes: w.nodes, document: { ...w, connections: {} } }));
    const result = validateCorpus(workflows, catalogOf([]), catalogOf(specs));
    expect(result).toMatchObject({ workflows: 1, communityNodes: 2, checked: 1, unknownTypes: { 'n8n-nodes-absent.thing': 1 } });
    expect(result.warningsBefore.unknown_community_node).toBe(2);
    expect(result.warningsAfter.unknown_community_node).toBe(1);
    expect(result.errorsBefore).toEqual({});
    expect(result.errorsAfter.invalid_option).toBe(1);
    expect(result.errors[0]).toMatchObject({ source: 'test@0', node: 'W', type: 'n8n-nodes-fixture.widget', code: 'invalid_option' });
    expect(result.otherErrors).toEqual({ before: 0, after: 0 });
  });
});
