import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNodePackage } from '../../../../scripts/catalog/community/readPackage';
import { RAN_FILE, RAN_GLOBAL, writeFixturePackage } from './fixturePackage';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'community-read-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const byName = (read: ReturnType<typeof readNodePackage>, name: string) => read.nodes.filter((n) => n.name === name);

describe('reading a node package as data', () => {
  it('reads every node description of a tsc-built package without running any of its code', () => {
    const read = readNodePackage(writeFixturePackage(dir));
    expect(read.name).toBe('n8n-nodes-fixture');
    expect(read.version).toBe('1.2.3');
    expect(read.nodes.map((n) => `${n.name}@${[n.version].flat().join(',')}`).sort()).toEqual([
      'gadgetTrigger@1',
      'versioned@1',
      'versioned@2,2.1',
      'widget@1,1.1',
    ]);
    // The helpers module sets a global and writes a file when it runs; a getter throws.
    expect((globalThis as Record<string, unknown>)[RAN_GLOBAL]).toBeUndefined();
    expect(existsSync(join(dir, RAN_FILE))).toBe(false);
  });

  it('follows requires, re-exports, enums, spreads and tsc helpers to the literal values', () => {
    const [widget] = byName(readNodePackage(writeFixturePackage(dir)), 'widget');
    expect(widget!.inputs).toEqual(['main']);
    expect(widget!.outputs).toEqual(['main']);
    expect(widget!.description).toBe('Manage widgets');
    const properties = widget!.properties!;
    expect(properties.map((p) => p.name)).toEqual(['resource', 'operation', 'itemId', 'limit', 'note']);
    expect(properties[0]!.options).toEqual([
      { name: 'Item', value: 'item' },
      { name: 'Folder', value: 'folder' },
    ]);
    expect(properties[1]!.displayOptions).toEqual({ show: { resource: ['item'] } });
    expect(properties[2]!.description).toBe('The ID of the item');
    expect(properties[3]).toEqual({
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      default: 50,
      typeOptions: { minValue: -1 },
      displayOptions: { show: { operation: ['list'] } },
    });
    // The codex beside the node file: what n8n reads for categories and aliases.
    expect(widget!.codex?.alias).toEqual(['gizmo']);
  });

  it('drops computed values where they are, and counts them', () => {
    const read = readNodePackage(writeFixturePackage(dir));
    const note = byName(read, 'widget')[0]!.properties!.find((p) => p.name === 'note')!;
    expect(note).toEqual({ displayName: 'Note', name: 'note', type: 'string' });
    expect(read.dropped).toMatchObject({ call: expect.any(Number), function: 1 });
  });

  it("reads a VersionedNodeType's version classes on its base description, one per class with the versions it serves", () => {
    const versions = byName(readNodePackage(writeFixturePackage(dir)), 'versioned');
    expect(versions).toHaveLength(2);
    const [v1, v2] = versions.sort((a, b) => Math.max(...[a.version].flat()) - Math.max(...[b.version].flat()));
    expect(v1).toMatchObject({ displayName: 'Versioned', version: 1, defaultVersion: 2.1, description: 'A node with versions' });
    expect(v2).toMatchObject({ displayName: 'Versioned', version: [2, 2.1], defaultVersion: 2.1 });
    expect(v2!.properties![0]!.options).toEqual([
      { name: 'New', value: 'new' },
      { name: 'Newer', value: 'newer' },
    ]);
  });

  it('reads a description given as a class field, through a re-export getter', () => {
    const [gadget] = byName(readNodePackage(writeFixturePackage(dir)), 'gadgetTrigger');
    expect(gadget).toMatchObject({ displayName: 'Gadget Trigger', group: ['trigger'], inputs: [], webhooks: [{ name: 'default' }] });
  });

  it('leaves out a node whose properties are computed, with the reason', () => {
    const read = readNodePackage(writeFixturePackage(dir));
    expect(read.leftOut).toEqual([{ file: 'dist/nodes/Computed/Computed.node.js', reason: 'description has no static properties' }]);
  });

  it('says when a listed node file is missing (an unbuilt package), and refuses a folder that is no node package', () => {
    const read = readNodePackage(writeFixturePackage(dir, ['dist/nodes/Gadget']));
    expect(read.leftOut).toContainEqual({ file: 'dist/nodes/Gadget/Gadget.node.js', reason: 'file missing (is the package built?)' });
    expect(() => readNodePackage(join(dir, 'dist'))).toThrow(/has no package\.json/);
  });
});
