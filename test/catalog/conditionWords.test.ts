import { describe, expect, it } from 'vitest';
import { conditionInWords } from '../../src/catalog/conditionWords';
import { n8nSpecs } from '../support/n8nCatalog';
import type { Parameter } from '../../src/catalog/nodeSpec';

describe('conditionInWords', () => {
  it('says each key’s values as alternatives, the keys together, what hides it after "unless"', () => {
    expect(conditionInWords({ show: { mode: ['combine'], combineBy: ['combineByFields', 'combineAll'] } })).toBe(
      'mode is combine and combineBy is combineByFields or combineAll',
    );
    expect(conditionInWords({ show: { advanced: [true] }, hide: { '/joinMode': ['keepMatches', 'keepNonMatches'] } })).toBe(
      'advanced is true, unless joinMode is keepMatches or keepNonMatches',
    );
    expect(conditionInWords(undefined)).toBeUndefined();
  });

  it('says n8n’s condition operators, the typeVersion and tool use in words', () => {
    expect(conditionInWords({ show: { resolveClash: [{ _cnd: { not: 'addSuffix' } }] } })).toBe('resolveClash is not addSuffix');
    expect(conditionInWords({ show: { '@version': [{ _cnd: { gte: 2.2 } }] } })).toBe('typeVersion is at least 2.2');
    expect(conditionInWords({ show: { size: [{ _cnd: { between: { from: 1, to: 5 } } }], name: [{ _cnd: { exists: true } }] } })).toBe(
      'size is between 1 and 5 and name is set',
    );
    expect(conditionInWords({ show: { '@tool': [true] } })).toBe('used as an AI tool');
  });

  it('leaves out the keys the answer has said (the typeVersion described, the values asked for)', () => {
    const conditions = { show: { '@version': [2], resource: ['message'], operation: ['post'] } };
    expect(conditionInWords(conditions, (key) => key === '@version' || key === 'resource')).toBe('operation is post');
    expect(conditionInWords(conditions, () => true)).toBeUndefined();
  });

  it('writes no condition of the real descriptions in n8n’s notation', () => {
    const all = (ps: Parameter[]): Parameter[] => ps.flatMap((p) => [p, ...all(p.options ?? [])]);
    const words = n8nSpecs.flatMap((s) => all(s.parameters)).flatMap((p) => conditionInWords(p.display_options) ?? []);
    expect(words.length).toBeGreaterThan(100);
    expect(words.filter((w) => /_cnd|[{}=]|\/\w/.test(w))).toEqual([]);
  });
});
