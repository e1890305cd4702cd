/**
 * Which module each byte of a Worker bundle comes from, and which of them a production bundle must not
 * hold. Reads esbuild's unminified output (what `wrangler deploy --dry-run --outdir` writes), which
 * opens the code of each module with a comment line naming its path: `// src/worker.ts`,
 * `// node_modules/zod/v4/core/core.js`.
 */

/** A module in the bundle and the bytes (UTF-8) of its code there; a module esbuild split in parts counts once. */
export interface ModuleBytes {
  path: string;
  bytes: number;
}

/** What esbuild adds itself: its helpers before the first module, and the license comments it collects at the end. */
export const BUNDLER = '(esbuild)';

const MODULE_MARKER = /^\/\/ (\S+\.(?:[cm]?[jt]sx?|json))$/;
const LICENSE_BLOCK = '/*! Bundled license information:';

/** The bundle's bytes by module, largest first. They add up to the bundle's size. */
export function modulesOf(bundle: string): ModuleBytes[] {
  const bytes = new Map<string, number>();
  let current = BUNDLER;
  let marked = false;
  const lines = bundle.split('\n');
  lines.forEach((line, index) => {
    const marker = MODULE_MARKER.exec(line);
    if (marker) [current, marked] = [marker[1]!, true];
    else if (line === LICENSE_BLOCK) current = BUNDLER;
    const size = Buffer.byteLength(line) + (index < lines.length - 1 ? 1 : 0);
    bytes.set(current, (bytes.get(current) ?? 0) + size);
  });
  if (!marked) throw new Error('no `// path` module comments in the bundle: is it minified?');
  return [...bytes].map(([path, size]) => ({ path, bytes: size })).sort((a, b) => b.bytes - a.bytes);
}

/** The package a module belongs to (`@scope/name` or `name`), or undefined for the project's own files. */
export function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const [first, second] = path.slice(at + 'node_modules/'.length).split('/');
  return first!.startsWith('@') ? `${first}/${second}` : first;
}

/** Where a module's bytes are reported: its package, or its top folder under src/ (`src/workflows`). */
export function groupOf(path: string): string {
  const pkg = packageOf(path);
  if (pkg) return pkg;
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.length === 2 ? parts[0]! : path;
}

/** Bytes per group, largest first. */
export function groupsOf(modules: readonly ModuleBytes[]): ModuleBytes[] {
  const bytes = new Map<string, number>();
  for (const module of modules) bytes.set(groupOf(module.path), (bytes.get(groupOf(module.path)) ?? 0) + module.bytes);
  return [...bytes].map(([path, size]) => ({ path, bytes: size })).sort((a, b) => b.bytes - a.bytes);
}

/** What the production bundle may not contain. */
export interface Forbidden {
  /** Path prefixes: test code and tooling, and where test-only code once lived in src/. */
  paths: readonly string[];
  /** Package names. */
  packages: readonly string[];
}

/** Test code, build and benchmark tooling, and the old homes of the conformance pack and the fault hooks. */
export const TEST_ONLY_PATHS = ['test/', 'bench/', 'scripts/', 'src/tools/conformance/', 'src/faults/'];

/** The MCP SDK 1.x: the server runs on 2.x, and one SDK major is what it should carry (issue 31). */
export const FORBIDDEN_PACKAGES = ['@modelcontextprotocol/sdk'];

/** The rules for this project: the test-only paths, the packages above, and every devDependency (nothing a test or a tool needs belongs in the Worker). */
export function forbiddenFor(devDependencies: readonly string[]): Forbidden {
  return { paths: TEST_ONLY_PATHS, packages: [...FORBIDDEN_PACKAGES, ...devDependencies] };
}

/** Each module of the bundle that breaks a rule, with the rule. */
export function violations(modules: readonly ModuleBytes[], forbidden: Forbidden): { path: string; rule: string }[] {
  return modules.flatMap(({ path }) => {
    const prefix = forbidden.paths.find((p) => path.startsWith(p));
    if (prefix) return [{ path, rule: `test-only path ${prefix}` }];
    const pkg = packageOf(path);
    if (pkg && forbidden.packages.includes(pkg)) return [{ path, rule: `forbidden package ${pkg}` }];
    return [];
  });
}
