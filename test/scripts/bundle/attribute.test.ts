import { describe, expect, it } from 'vitest';
import { BUNDLER, forbiddenFor, groupOf, groupsOf, modulesOf, violations } from '../../../scripts/bundle/attribute';

/** A bundle as esbuild writes it unminified: its helpers, each module after its `// path` line, a module in two parts, the license block. */
const BUNDLE = [
  'var __defProp = Object.defineProperty;',
  '',
  '// node_modules/zod/v4/core/core.js',
  'function $constructor() {}',
  '// @__NO_SIDE_EFFECTS__',
  'function brand() {}',
  '',
  '// node_modules/@modelcontextprotocol/sdk/dist/esm/types.js',
  'var LATEST = "2025-11-25";',
  '',
  '// src/sessions/SessionObject.ts',
  'var SessionObject = class {};',
  '',
  '// test/entry/conformance/tools.ts',
  'var PNG = "iVBOR…";',
  '',
  '// src/sessions/SessionObject.ts',
  'init_SessionObject();',
  '',
  '// src/worker.ts',
  'var worker_default = {};',
  'export { worker_default as default };',
  '/*! Bundled license information:',
  '',
  'zod/index.js: (* MIT *)',
  '*/',
].join('\n');

const bytes = (...lines: string[]) => lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);

describe('scripts/bundle/attribute', () => {
  it('gives each byte to the module whose `// path` line it follows, a module in parts once, esbuild what it adds', () => {
    const modules = modulesOf(BUNDLE);
    const of = (path: string) => modules.find((m) => m.path === path)?.bytes;
    expect(modules.reduce((sum, m) => sum + m.bytes, 0)).toBe(Buffer.byteLength(BUNDLE));
    expect(modules.map((m) => m.path).sort()).toEqual(
      [
        BUNDLER,
        'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js',
        'node_modules/zod/v4/core/core.js',
        'src/sessions/SessionObject.ts',
        'src/worker.ts',
        'test/entry/conformance/tools.ts',
      ].sort(),
    );
    // `// @__NO_SIDE_EFFECTS__` is an annotation inside a module, not a module.
    expect(of('node_modules/zod/v4/core/core.js')).toBe(
      bytes('// node_modules/zod/v4/core/core.js', 'function $constructor() {}', '// @__NO_SIDE_EFFECTS__', 'function brand() {}', ''),
    );
    expect(of('src/sessions/SessionObject.ts')).toBe(
      bytes('// src/sessions/SessionObject.ts', 'var SessionObject = class {};', '', '// src/sessions/SessionObject.ts', 'init_SessionObject();', ''),
    );
    // The license block is esbuild's (its last line has no newline after it).
    expect(of(BUNDLER)).toBe(
      bytes('var __defProp = Object.defineProperty;', '', '/*! Bundled license information:', '', 'zod/index.js: (* MIT *)') + Buffer.byteLength('*/'),
    );
    expect(modules[0]!.bytes).toBeGreaterThanOrEqual(modules.at(-1)!.bytes);
  });

  it('counts bytes, not characters', () => {
    const modules = modulesOf('// src/a.ts\nconst s = "é";');
    expect(modules).toEqual([{ path: 'src/a.ts', bytes: 12 + Buffer.byteLength('const s = "é";') }]);
  });

  it('refuses a bundle without module comments (minified)', () => {
    expect(() => modulesOf('var a=1;function b(){}')).toThrow(/minified/);
  });

  it('groups by package (scoped or nested) and by top folder of src/', () => {
    expect(groupOf('node_modules/zod/v4/core/core.js')).toBe('zod');
    expect(groupOf('node_modules/@modelcontextprotocol/server/dist/index.mjs')).toBe('@modelcontextprotocol/server');
    expect(groupOf('node_modules/@modelcontextprotocol/server/node_modules/content-type/index.js')).toBe('content-type');
    expect(groupOf('src/workflows/validateNode.ts')).toBe('src/workflows');
    expect(groupOf('src/worker.ts')).toBe('src');
    expect(groupOf('package.json')).toBe('package.json');
    expect(groupsOf(modulesOf(BUNDLE)).find((g) => g.path === 'src')?.bytes).toBe(
      bytes('// src/worker.ts', 'var worker_default = {};', 'export { worker_default as default };'),
    );
  });

  it('names each module from test code, a test-only path, a forbidden package or a devDependency, and only those', () => {
    const modules = [
      ...modulesOf(BUNDLE),
      { path: 'src/faults/inject.ts', bytes: 1 },
      { path: 'src/tools/conformance/pack.ts', bytes: 1 },
      { path: 'scripts/lib/sseFrame.ts', bytes: 1 },
      { path: 'node_modules/fast-check/lib/esm/fast-check.js', bytes: 1 },
      // Not test code: a package's own test folder, and a file whose name merely begins like one.
      { path: 'node_modules/itty-router/test/index.mjs', bytes: 1 },
      { path: 'src/tools/n8n/testWorkflow.ts', bytes: 1 },
    ];
    expect(violations(modules, forbiddenFor(['fast-check', 'vitest'])).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js', rule: 'forbidden package @modelcontextprotocol/sdk' },
      { path: 'node_modules/fast-check/lib/esm/fast-check.js', rule: 'forbidden package fast-check' },
      { path: 'scripts/lib/sseFrame.ts', rule: 'test-only path scripts/' },
      { path: 'src/faults/inject.ts', rule: 'test-only path src/faults/' },
      { path: 'src/tools/conformance/pack.ts', rule: 'test-only path src/tools/conformance/' },
      { path: 'test/entry/conformance/tools.ts', rule: 'test-only path test/' },
    ]);
    // A clean bundle passes (the positive control).
    expect(
      violations(
        [
          { path: 'src/worker.ts', bytes: 1 },
          { path: 'node_modules/zod/v4/core/core.js', bytes: 1 },
        ],
        forbiddenFor(['vitest']),
      ),
    ).toEqual([]);
  });
});
