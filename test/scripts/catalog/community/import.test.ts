import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importable, importSources, npmInstall } from '../../../../scripts/catalog/community/import';
import type { N8nNode } from '../../../../scripts/catalog/n8n/mapNode';
import { writeFixturePackage } from './fixturePackage';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'community-import-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('importing community packages', () => {
  it("maps every description like n8n's own, typed by the package name, with the tools n8n derives, marked community", () => {
    const { specs, report } = importSources([{ from: { folder: writeFixturePackage(dir) }, verified: false }]);
    expect(specs.map((s) => `${s.subtype}@${s.type_versions!.join(',')}`).sort()).toEqual([
      'n8n-nodes-fixture.gadgetTrigger@1',
      'n8n-nodes-fixture.versioned@1',
      'n8n-nodes-fixture.versioned@2,2.1',
      'n8n-nodes-fixture.widget@1,1.1',
      'n8n-nodes-fixture.widgetTool@1,1.1',
    ]);
    const widget = specs.find((s) => s.subtype === 'n8n-nodes-fixture.widget')!;
    expect(widget.community).toEqual({ package: 'n8n-nodes-fixture', version: '1.2.3', verified: false, install: expect.stringMatching(/custom extensions/) });
    expect(widget).toMatchObject({
      node_type: 'EXTERNAL_ACTION_NODE',
      aliases: ['gizmo'],
      documentation_url: 'https://example.com/widget',
      credentials: [{ name: 'widgetApi', required: true }],
    });
    const versioned = specs.filter((s) => s.subtype === 'n8n-nodes-fixture.versioned');
    expect(versioned.map((s) => s.default_version)).toEqual([2.1, 2.1]);
    expect(specs.find((s) => s.subtype === 'n8n-nodes-fixture.gadgetTrigger')).toMatchObject({ node_type: 'TRIGGER_NODE', has_webhooks: true });
    expect(report[0]).toBe('community: 1 of 1 packages read, 1 of them with nodes: 4 nodes (1 of them tools n8n derives), 5 descriptions');
    expect(report.join('\n')).toMatch(/left out 1: description has no static properties \(n8n-nodes-fixture\/dist\/nodes\/Computed\/Computed\.node\.js\)/);
  });

  it('reports a package that cannot be had and goes on with the others', () => {
    const { specs, report } = importSources([
      { from: { folder: join(dir, 'absent') }, verified: false },
      { from: { folder: writeFixturePackage(join(dir, 'pkg')) }, verified: true },
    ]);
    expect(specs.length).toBe(5);
    expect(specs.every((s) => s.community?.verified === true)).toBe(true);
    expect(report.join('\n')).toMatch(/not read \(1\):\n {4}.*absent: .*has no package\.json/);
  });

  it('says how n8n installs a package from npm, pinned', () => {
    expect(npmInstall('@acme/n8n-nodes-x', '1.0.0')).toBe(
      'n8n Settings → Community Nodes → Install: @acme/n8n-nodes-x@1.0.0 (or `npm install @acme/n8n-nodes-x@1.0.0` in ~/.n8n/nodes, then restart n8n)',
    );
  });

  it('keeps only the plain $nodeVersion comparison of a filter version (the mapper evaluates it), and drops unnamed properties and bad links', () => {
    const dropped: Record<string, number> = {};
    const filter = (version: unknown) => ({ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {}, typeOptions: { filter: { version } } });
    const node = {
      name: 'n',
      displayName: 'N',
      version: 1,
      codex: { resources: { primaryDocumentation: [{ url: 'javascript:alert(1)' }] } },
      properties: [
        filter('={{ $nodeVersion >= 2 ? 2 : 1 }}'),
        filter('={{ (() => { require("fs").writeFileSync("x", "y"); return 1; })() }}'),
        filter(2),
        { displayName: 'Nameless', type: 'string' },
        { displayName: 'Group', name: 'group', type: 'fixedCollection', options: [{ name: 'g', values: [{ displayName: 'No type', name: 'x' }] }] },
      ],
    } as unknown as N8nNode;
    const clean = importable(node, dropped);
    expect(clean.properties!.map((p) => p.typeOptions?.filter?.version)).toEqual(['={{ $nodeVersion >= 2 ? 2 : 1 }}', undefined, 2, undefined]);
    expect(clean.properties![3]!.options).toEqual([{ name: 'g', values: [] }]);
    expect(clean.codex?.resources?.primaryDocumentation).toEqual([]);
    expect(dropped).toEqual({ 'filter version expression': 1, 'property without a static name or type': 2, 'documentation link that is not a URL': 1 });
  });

  it('reads ports written as an expression that only lists them, and leaves other port expressions as they are', () => {
    const node = {
      name: 'n',
      displayName: 'N',
      version: 1,
      inputs: '={{["main"]}}',
      outputs: '={{ $parameter.mode === "a" ? ["main"] : ["main", "main"] }}',
      properties: [],
    };
    const clean = importable(node as N8nNode, {});
    expect(clean.inputs).toEqual(['main']);
    expect(clean.outputs).toBe(node.outputs);
  });
});
