import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageOfType, readOperatorList, readPackageList } from '../../../../scripts/catalog/community/packages';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'community-lists-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (value: unknown) => {
  const file = join(dir, 'list.json');
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('the package lists', () => {
  it('reads the committed list: every entry pinned, with verified from nodes.db', () => {
    const { about, packages } = readPackageList();
    expect(about).toMatch(/nodes\.db/);
    expect(packages.length).toBeGreaterThan(0);
    for (const p of packages)
      expect(p).toMatchObject({ name: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+/), verified: expect.any(Boolean) });
    // The corpus's packages come first.
    expect(packages[0]!.used_in_workflows).toBeDefined();
  });

  it('refuses an entry that is not pinned to an exact version, or listed twice, naming it', () => {
    const entry = { name: 'n8n-nodes-a', version: '1.0.0', verified: true };
    expect(() => readPackageList(write({ about: 'x', packages: [{ ...entry, version: '^1.0.0' }] }))).toThrow(
      /packages\[0\] \(n8n-nodes-a\): "\^1\.0\.0" is not an exact version/,
    );
    expect(() => readPackageList(write({ about: 'x', packages: [entry, entry] }))).toThrow(/packages\[1\]: n8n-nodes-a is listed twice/);
    expect(() => readPackageList(write({ about: 'x', packages: [{ ...entry, verified: 'yes' }] }))).toThrow(/needs "verified"/);
    expect(() => readPackageList(write('{not json'))).toThrow(/list\.json/);
  });

  it("reads the operator's list: npm packages pinned, or folders; none when the file is absent", () => {
    expect(readOperatorList(join(dir, 'absent.json')).packages).toEqual([]);
    const file = write({ packages: [{ npm: '@acme/n8n-nodes-x', version: '2.0.1' }, { folder: 'nodes/mine' }] });
    expect(readOperatorList(file).packages).toEqual([{ npm: '@acme/n8n-nodes-x', version: '2.0.1' }, { folder: 'nodes/mine' }]);
    expect(() => readOperatorList(write({ packages: [{ npm: 'n8n-nodes-x' }] }))).toThrow(/must be \{"npm": "name", "version": "x\.y\.z"\} or \{"folder"/);
    expect(() => readOperatorList(write({ packages: [{ npm: 'Not A Name', version: '1.0.0' }] }))).toThrow(/is not an npm package name/);
  });

  it("names the package of a community node type; none for n8n's own nodes and CUSTOM ones", () => {
    expect(packageOfType('n8n-nodes-mcp.mcpClientTool')).toBe('n8n-nodes-mcp');
    expect(packageOfType('@horka.tv/n8n-nodes-storage-kv.keyValueStorage')).toBe('@horka.tv/n8n-nodes-storage-kv');
    expect(packageOfType('n8n-nodes-base.set')).toBeUndefined();
    expect(packageOfType('@n8n/n8n-nodes-langchain.agent')).toBeUndefined();
    expect(packageOfType('CUSTOM.klicktipp')).toBeUndefined();
    expect(packageOfType('noDot')).toBeUndefined();
  });
});
