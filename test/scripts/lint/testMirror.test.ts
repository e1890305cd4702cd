import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_WITHOUT_MIRROR, checkMirror, mirroredSource } from '../../../scripts/lint/testMirror';

/** A repository holding just these (empty) files. */
function tree(files: string[]): string {
  const base = mkdtempSync(join(tmpdir(), 'test-mirror-'));
  for (const file of files) {
    mkdirSync(dirname(join(base, file)), { recursive: true });
    writeFileSync(join(base, file), '');
  }
  return base;
}

describe('scripts/lint/testMirror', () => {
  it('maps a test file, or a fuzz test, to the src file it mirrors', () => {
    expect(mirroredSource('test/a/b.test.ts')).toBe('src/a/b.ts');
    expect(mirroredSource('test/a/b.fuzz.test.ts')).toBe('src/a/b.ts');
    expect(mirroredSource('test/worker.test.ts')).toBe('src/worker.ts');
    expect(mirroredSource('test/a/helper.ts')).toBeNull();
  });

  it('counts a src file as mirrored by its test or by a fuzz test beside it, and lists the ones without', () => {
    const base = tree(['src/a/b.ts', 'src/a/c.ts', 'src/d.ts', 'src/types.d.ts', 'src/data.json', 'test/a/b.test.ts', 'test/d.fuzz.test.ts']);
    const report = checkMirror(base, []);
    expect(report.sources).toEqual(['src/a/b.ts', 'src/a/c.ts', 'src/d.ts']);
    expect(report.mirrored).toEqual(['src/a/b.ts', 'src/d.ts']);
    expect(report.missing).toEqual(['src/a/c.ts']);
    expect(report.orphans).toEqual([]);
  });

  it('lists a test file whose src file does not exist, but not the folders that hold no mirrors', () => {
    const base = tree([
      'src/a.ts',
      'test/a.test.ts',
      'test/gone.test.ts',
      'test/a/split.test.ts',
      'test/security.test.ts',
      'test/support/helper.test.ts',
      'test/fakes/n8n/server.test.ts',
      'test/e2e/clients.test.ts',
      'test/e2e-n8n/tools.test.ts',
      'test/scripts/build.test.ts',
      'test/conformance/run.test.ts',
    ]);
    expect(checkMirror(base, []).orphans).toEqual(['test/a/split.test.ts', 'test/gone.test.ts']);
  });

  it('leaves an allowed exception out of the missing ones, and calls it stale once it is gone or mirrored', () => {
    const base = tree(['src/types.ts', 'src/mirrored.ts', 'test/mirrored.test.ts']);
    const report = checkMirror(base, ['src/types.ts', 'src/mirrored.ts', 'src/gone.ts']);
    expect(report.missing).toEqual([]);
    expect(report.stale).toEqual(['src/mirrored.ts', 'src/gone.ts']);
  });

  it('every allowed exception of this repository exists and has no mirror', () => {
    expect(checkMirror().stale).toEqual([]);
    expect(ALLOWED_WITHOUT_MIRROR.length).toBeGreaterThan(0);
  });
});
