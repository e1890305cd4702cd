import { describe, expect, it } from 'vitest';
import type { ObservedFile } from '../../scripts/catalog/observe/observe';
import {
  behaviourAnswer,
  behaviourOf,
  matchingBehaviour,
  observedConfigurations,
  type ObservedConfiguration,
  type ObservedSample,
} from '../../src/catalog/observed';
import { n8nSpecs } from '../support/n8nCatalog';
import observedFile from '../../specs/observed/behaviour.json';

// What `npm run catalog:observe` saw n8n 1.123.81 do (committed, generated).
const file = observedFile as unknown as ObservedFile;
const sample = file.sample as ObservedSample;
const configurationsOf = (key: string) => file.nodes[`n8n-nodes-base.${key}`]!.configurations;
const behaviour = (key: string, label: string) =>
  behaviourOf(
    configurationsOf(key).find((c) => c.label === label)!,
    sample,
  );

describe('behaviourOf', () => {
  it('names the fields a node writes from its parameters (Summarize: count_<field>) and says the input fields are gone', () => {
    const summarize = behaviour('summarize@1.1', 'defaults');
    expect(summarize.outputs).toHaveLength(1);
    expect(Object.keys(summarize.outputs[0]!.fields)).toEqual(['count_score']);
    expect(summarize.outputs[0]!.input_fields).toMatch(/^dropped/);
  });

  it('says which items stay and in what order: Sort keeps ties in input order, Remove Duplicates keeps the first', () => {
    // The sample's scores are 3, 1, 3 (ids 1, 2, 3).
    expect(behaviour('sort@1', 'type=simple').outputs[0]!.order).toMatch(/^reordered: ids 2, 1, 3/);
    const dedupe = configurationsOf('removeDuplicates@2').find((c) => c.label === 'operation=removeDuplicateInputItems, compare=selectedFields')!;
    expect(behaviourOf(dedupe, sample).outputs[0]!.order).toMatch(/^input order: ids 1, 2 /);
  });

  it('tells a node that fails on an item without its field from one that puts out nothing', () => {
    const sort = behaviour('sort@1', 'type=simple');
    expect(sort.fails_on_missing_field).toMatch(/Couldn't find the field 'score'/);
    expect(sort.runs_out).toEqual([]);
    const splitOut = behaviour('splitOut@1', 'include=noOtherFields');
    expect(splitOut.fails_on_missing_field).toBeUndefined();
    expect(splitOut.runs_out).toEqual([0]);
    expect(splitOut.on_missing_field).toMatch(/chain stops/);
  });

  it('says a node given no items does not run', () => {
    expect(behaviour('summarize@1.1', 'defaults').on_zero_items).toMatch(/^does not run/);
  });

  it('finds where a chain can stop from a run alone, whatever the node', () => {
    const run = (items: number): ObservedConfiguration => ({
      label: 'x',
      parameters: {},
      runs: {
        items: { ran: true, outputs: [{ items: 2, fields: {} }] },
        secondEmpty: items < 0 ? { ran: false } : { ran: true, outputs: [{ items, fields: {} }] },
      },
    });
    expect(behaviourOf(run(0), sample).runs_out).toEqual([0]);
    expect(behaviourOf(run(-1), sample).runs_out).toEqual([0]);
    expect(behaviourOf(run(3), sample).runs_out).toEqual([]);
  });
});

describe('matchingBehaviour', () => {
  const merge = configurationsOf('merge@3.2').map((c) => behaviourOf(c, sample));

  it('picks the configuration that shares the values given, a contradicted choice ruling one out', () => {
    expect(matchingBehaviour(merge, { mode: 'combine', joinMode: 'enrichInput1' })!.configuration).toMatch(
      /mode=combine, combineBy=combineByFields.*joinMode=enrichInput1/,
    );
    expect(matchingBehaviour(merge, { mode: 'append' })!.configuration).toBe('mode=append');
  });

  it('picks the defaults when nothing is given', () => {
    expect(matchingBehaviour(merge, {})).toBe(merge[0]);
  });
});

describe('behaviourAnswer', () => {
  const setSpec = n8nSpecs.find((s) => s.subtype === 'n8n-nodes-base.set' && s.type_versions?.includes(3.4))!;

  it('says a typeVersion the observed n8n lacks carries an older one’s runs, and names the other configurations', () => {
    const answer = behaviourAnswer(setSpec.observed, Math.max(...setSpec.type_versions!), {})!;
    expect(answer.observed_on).toMatch(/n8n 1\.123\.81, typeVersion 3\.4/);
    expect((answer.other_configurations as string[]).length).toBeGreaterThan(0);
    expect(answer).not.toHaveProperty('runs_out');
  });

  it('follows a version whose runs repeat another one’s', () => {
    const versions = Object.entries(setSpec.observed!.versions);
    // Edit Fields 3.1 behaves as 3 on the sample.
    const repeated = versions.find(([, v]) => v.same_as !== undefined)!;
    expect(repeated).toBeDefined();
    expect(observedConfigurations(setSpec.observed, Number(repeated[0]))).toEqual(setSpec.observed!.versions[repeated[1].same_as!]!.configurations);
  });

  it('answers nothing for a node no run observed', () => {
    const code = n8nSpecs.find((s) => s.subtype === 'n8n-nodes-base.code')!;
    expect(behaviourAnswer(code.observed, 2, {})).toBeUndefined();
  });
});
