import { describe, expect, it } from 'vitest';
import { clip, findingKey, Findings, MAX_FINDINGS, quote, type Finding } from '../../src/workflows/findings';

describe('findings', () => {
  it('keeps the first MAX_FINDINGS of each kind and counts the rest; an error left out still makes the workflow invalid', () => {
    const out = new Findings();
    for (let i = 0; i < 250; i++) out.error(`N${i}`, 'e', `error ${i}`);
    for (let i = 0; i < 30; i++) out.warning(`N${i}`, 'w', `warning ${i}`);
    const result = out.result();
    expect(result.errors).toHaveLength(MAX_FINDINGS);
    expect(result.errors.at(-1)!.node).toBe('N99');
    expect(result.warnings).toHaveLength(30);
    expect(result).toMatchObject({ valid: false, omitted: { errors: 150, warnings: 0 } });
    expect(out.errorCount).toBe(250);
    expect(new Findings().result()).toEqual({ valid: true, errors: [], warnings: [] });
    const none = new Findings({ max: 0 });
    none.error(null, 'e', 'x');
    expect(none.result()).toEqual({ valid: false, errors: [], warnings: [], omitted: { errors: 1, warnings: 0 } });
    expect(none.has('e')).toBe(true);
  });

  it('shows every finding, kept or not, to an observer, as it was made', () => {
    const seen: string[] = [];
    const out = new Findings({ max: 1, observe: (f, severity) => seen.push(`${severity}:${f.node}:${f.path}`) });
    const path = `parameters.${'k'.repeat(400)}`;
    out.error('A', 'e', 'x', path);
    out.error('B', 'e', 'y');
    out.warning('C', 'w', 'z');
    expect(seen).toEqual([`error:A:${path}`, 'error:B:undefined', 'warning:C:undefined']);
    expect(out.result().errors).toEqual([{ node: 'A', path: `${path.slice(0, 300)}…`, code: 'e', message: 'x' }]);
  });

  it('clips what a finding could carry without end: its message and its path', () => {
    const out = new Findings();
    out.warning('A', 'w', 'm'.repeat(5_000), 'p'.repeat(5_000));
    const [finding] = out.result().warnings;
    expect(finding!.message).toHaveLength(1_001);
    expect(finding!.path).toHaveLength(301);
    expect(clip('abc', 2)).toBe('ab…');
    expect(clip('abc')).toBe('abc');
    expect(quote('n'.repeat(150))).toBe(`"${'n'.repeat(100)}…"`);
  });

  it('tells findings apart by code, node and path, not message', () => {
    const f = (node: string | null, path?: string, message = 'm'): Finding => ({ node, code: 'c', message, ...(path ? { path } : {}) });
    expect(findingKey(f('A', 'p', 'one'))).toBe(findingKey(f('A', 'p', 'two')));
    expect(new Set([f('A', 'p'), f('A', 'q'), f('B', 'p'), f(null, 'p'), f('null', 'p'), f('A')].map(findingKey)).size).toBe(6);
  });

  it('adds another collector’s findings, which it kept in full', () => {
    const own = new Findings();
    own.error('A', 'e', 'x');
    own.warning('A', 'w', 'y');
    const out = new Findings();
    out.addAll(own);
    expect(out.result()).toMatchObject({ valid: false, errors: [{ code: 'e' }], warnings: [{ code: 'w' }] });
    expect(own.complete).toBe(true);
  });
});
