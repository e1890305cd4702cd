import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPackage, parseTarget } from '../../../../scripts/catalog/community/add';
import { importSources, listedSources } from '../../../../scripts/catalog/community/import';
import { buildCatalog } from '../../../../src/catalog/build';
import type { NodeSpec } from '../../../../src/catalog/nodeSpec';
import { serializeSpec } from '../../../../src/catalog/serialize';
import { catalogOf } from '../../../../src/workflows/nodeCatalog';
import { validateWorkflow } from '../../../../src/workflows/validateWorkflow';
import { writeFixturePackage } from './fixturePackage';

let dir: string;
let operatorFile: string;
let packagesFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'community-add-'));
  operatorFile = join(dir, 'catalog.packages.json');
  packagesFile = join(dir, 'packages.json');
  writeFileSync(packagesFile, JSON.stringify({ about: 'none chosen', packages: [] }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A workflow with the fixture's Widget after a manual trigger. */
const workflow = (parameters: Record<string, unknown>) => ({
  nodes: [
    { id: '1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: '2',
      name: 'Widget',
      type: 'n8n-nodes-fixture.widget',
      typeVersion: 1.1,
      position: [200, 0],
      parameters,
      credentials: { widgetApi: { id: '1', name: 'w' } },
    },
  ],
  connections: { Start: { main: [[{ node: 'Widget', type: 'main', index: 0 }]] } },
});

describe('npm run catalog:add', () => {
  it("adds a local folder to the deployment's list, and the built catalog then serves and validates its nodes", async () => {
    const folder = writeFixturePackage(join(dir, 'my-nodes'));
    const { entry, read } = addPackage(folder, { operatorFile });
    expect(entry).toEqual({ folder: relative(process.cwd(), folder) });
    expect(read.nodes.length).toBe(4);
    expect(JSON.parse(readFileSync(operatorFile, 'utf8'))).toMatchObject({ about: expect.stringMatching(/catalog:add/), packages: [entry] });
    // Added twice: still one entry.
    addPackage(folder, { operatorFile });
    expect((JSON.parse(readFileSync(operatorFile, 'utf8')) as { packages: unknown[] }).packages).toHaveLength(1);

    const { specs } = importSources(listedSources({ packagesFile, operatorFile }));
    const manualTrigger: NodeSpec = {
      node_type: 'TRIGGER_NODE',
      subtype: 'n8n-nodes-base.manualTrigger',
      version: '1',
      display_name: 'Manual Trigger',
      description: 'Runs the flow on clicking a button in n8n',
      aliases: [],
      categories: [],
      source: 'n8n',
      documentation_url: null,
      parameters: [],
      input_ports: [],
      output_ports: [{ name: 'main', type: 'main', required: false, description: 'Resulting items', max_connections: null, data_format: null }],
      examples: [],
      type_versions: [1],
      node_versions: [1],
      default_version: 1,
    };
    const built = await buildCatalog([manualTrigger, ...specs], { sources: ['n8n', 'community'] });
    const served = built.entries
      .filter((e) => /:spec:/.test(e.key))
      .map((e) => JSON.parse(e.value) as NodeSpec)
      .filter((s) => s.subtype === 'n8n-nodes-fixture.widget');
    expect(served[0]!.community).toMatchObject({ package: 'n8n-nodes-fixture', version: '1.2.3', verified: false });
    // get_node_details says which package the node needs and how to install it, at either detail.
    for (const detail of ['essentials', 'full'] as const)
      expect(serializeSpec(served[0]!, { includeExamples: false, includeSchemas: false, detail }).community).toEqual(served[0]!.community);
    const catalog = catalogOf(built.entries.filter((e) => /:spec:/.test(e.key)).map((e) => JSON.parse(e.value) as NodeSpec));

    const good = validateWorkflow(workflow({ resource: 'item', operation: 'get', itemId: '42' }), catalog);
    expect(good.errors).toEqual([]);
    expect(good.warnings.map((w) => w.code)).not.toContain('unknown_community_node');
    const bad = validateWorkflow(workflow({ resource: 'item', operation: 'delete' }), catalog);
    expect(bad.errors.map((e) => `${e.node} ${e.code}`)).toContain('Widget invalid_option');
    const missing = validateWorkflow(workflow({ resource: 'item', operation: 'get' }), catalog);
    expect(missing.errors.map((e) => e.path)).toContain('parameters.itemId');
  });

  it('refuses a folder whose listed node files are not built, and says to build it first', () => {
    const folder = writeFixturePackage(join(dir, 'unbuilt'), ['dist/nodes/Gadget', 'dist/nodes/Widget']);
    expect(() => addPackage(folder, { operatorFile })).toThrow(/is not built: .*Gadget\.node\.js.* Run its build .*does not run the build/);
    expect(() => readFileSync(operatorFile)).toThrow();
  });

  it('tells an npm name, pinned or not, from a folder', () => {
    expect(parseTarget('n8n-nodes-foo')).toEqual({ npm: 'n8n-nodes-foo' });
    expect(parseTarget('@acme/n8n-nodes-foo@1.2.3')).toEqual({ npm: '@acme/n8n-nodes-foo', version: '1.2.3' });
    expect(parseTarget('./nodes/mine')).toEqual({ folder: './nodes/mine' });
    expect(() => parseTarget('Not a package!')).toThrow(/neither an npm package name/);
  });
});
