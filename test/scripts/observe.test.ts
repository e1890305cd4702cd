import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { importN8n, N8N_SPECS_FILE, readN8nSpecs } from '../../scripts/catalog/n8n/import';
import { configurations, MAX_CONFIGURATIONS } from '../../scripts/catalog/observe/configurations';
import { plan, stale, type ObservedFile } from '../../scripts/catalog/observe/observe';
import { readObserved } from '../../scripts/catalog/observe/paths';
import { recordRun } from '../../scripts/catalog/observe/record';
import { NOT_OBSERVED, observedNodes } from '../../scripts/catalog/observe/select';
import { SAMPLE_FIELDS } from '../../scripts/catalog/observe/sample';
import { CLASSED_TYPES } from '../../src/workflows/nodeClasses';

// n8n's real descriptions, as the build imports them (fetched once, as `npm run dev` does).
const specs = existsSync(N8N_SPECS_FILE) ? readN8nSpecs() : importN8n();
const described = (type: string, typeVersion: number) => specs.find((s) => s.subtype === `n8n-nodes-base.${type}` && s.type_versions?.includes(typeVersion))!;
const configurationsOf = (type: string, typeVersion: number) => configurations(`n8n-nodes-base.${type}`, typeVersion, described(type, typeVersion).parameters);

describe('configurations', () => {
  it('takes each choice of every switching parameter, nested where a choice reveals another switch', () => {
    const labels = configurationsOf('merge', 3.2).map((c) => c.label);
    for (const mode of ['append', 'combine', 'combineBySql', 'chooseBranch']) expect(labels.some((l) => l.startsWith(`mode=${mode}`))).toBe(true);
    for (const joinMode of ['keepMatches', 'keepNonMatches', 'keepEverything', 'enrichInput1', 'enrichInput2']) {
      expect(labels.some((l) => l.includes(`combineBy=combineByFields`) && l.includes(`joinMode=${joinMode}`))).toBe(true);
    }
    // joinMode applies under combineByFields only.
    expect(labels.filter((l) => l.includes('combineBy=combineByPosition') && l.includes('joinMode'))).toEqual([]);
    expect(labels.length).toBeLessThanOrEqual(MAX_CONFIGURATIONS);
  });

  it('takes a choice that reveals nothing only as the default: Date & Time formats differ in one string', () => {
    const formats = configurationsOf('dateTime', 2)
      .map((c) => c.parameters)
      .filter((p) => p.operation === 'formatDate')
      .map((p) => p.format);
    expect(new Set(formats)).toEqual(new Set(['MM/dd/yyyy', 'custom']));
  });

  it('fills the slots a node reads with sample fields, and leaves the ones it writes their name', () => {
    const [splitOut] = configurationsOf('splitOut', 1);
    expect(splitOut!.parameters.fieldToSplitOut).toBe('tags');
    const hash = configurationsOf('crypto', 1).find((c) => c.parameters.action === 'hash')!;
    // Crypto reads `value` (an expression on a sample field) and writes `dataPropertyName`.
    expect(hash.parameters.value).toMatch(/^=\{\{ \$json\.\w+ \}\}$/);
    expect(hash.parameters.dataPropertyName).toBe('data');
    const xml = configurationsOf('xml', 1).find((c) => c.parameters.mode === 'xmlToJson')!;
    expect(SAMPLE_FIELDS.has(xml.parameters.dataPropertyName as string)).toBe(true);
  });

  it('turns each boolean option on, and renames an output field, one at a time', () => {
    const labels = configurationsOf('splitOut', 1).map((c) => c.label);
    expect(labels).toContain('include=noOtherFields, options.destinationFieldName=renamed');
    expect(labels).toContain('include=allOtherFields, options.disableDotNotation=true');
  });

  it('gives conditions that some sample items pass and some do not', () => {
    const [filter] = configurationsOf('filter', 2.2);
    const conditions = (filter!.parameters.conditions as { conditions: { leftValue: string }[]; options: { version: number } }).conditions;
    expect(conditions[0]!.leftValue).toContain('$json.score');
  });
});

describe('recordRun', () => {
  it('says a node n8n did not run', () => {
    expect(recordRun(undefined)).toEqual({ ran: false });
  });

  it('takes items that hold only an error (onError continueRegularOutput) as the node failing', () => {
    const run = recordRun([{ data: { main: [[{ json: { error: 'Received undefined' } }, { json: { error: 'Received undefined' } }]] } }]);
    expect(run).toEqual({ ran: true, error: 'Received undefined' });
  });

  it('keeps per output the count, the ids in order and each field with the types it held', () => {
    const run = recordRun([{ data: { main: [[{ json: { id: 3, v: 1 } }, { json: { id: 1, v: null } }], []] } }]);
    expect(run.outputs).toEqual([
      { items: 2, ids: [3, 1], fields: { id: 'number', v: 'null|number' }, first: { id: 3, v: 1 } },
      { items: 0, fields: {} },
    ]);
  });
});

describe('which nodes', () => {
  it('leaves out nodes needing a credential, host and code nodes, triggers, and the named ones', () => {
    const types = new Set(observedNodes(specs).map((s) => s.subtype));
    for (const type of [...CLASSED_TYPES, ...Object.keys(NOT_OBSERVED)]) expect(types.has(type)).toBe(false);
    for (const type of ['merge', 'splitOut', 'summarize', 'sort', 'filter', 'dateTime', 'crypto']) expect(types.has(`n8n-nodes-base.${type}`)).toBe(true);
    expect(observedNodes(specs).every((s) => s.node_type !== 'TRIGGER_NODE')).toBe(true);
  });

  it('carries a typeVersion the tests’ n8n lacks over from the nearest older one it ships', () => {
    const plans = plan(specs);
    const set35 = plans.find((p) => p.key === 'n8n-nodes-base.set@3.5')!;
    expect(set35.runOn).toBe(3.4);
    expect(plans.find((p) => p.key === 'n8n-nodes-base.set@3.4')!.runOn).toBe(3.4);
  });
});

describe('the committed observations', () => {
  const file = readObserved()!;

  it('are what the catalog and these scripts plan now (npm run catalog:observe -- --check)', () => {
    expect(stale(file, plan(specs))).toEqual([]);
  });

  it('are found stale when a configuration changes or a node version is missing', () => {
    const key = 'n8n-nodes-base.sort@1';
    const changed: ObservedFile = structuredClone(file);
    changed.nodes[key]!.configurations[0]!.parameters = { type: 'random' };
    expect(stale(changed, plan(specs))).toEqual([`${key}: its configurations changed`]);
    const { [key]: _, ...rest } = file.nodes;
    expect(stale({ ...file, nodes: rest }, plan(specs))).toEqual([`${key} is not observed`]);
  });
});
