/**
 * Fetches n8n's public API description (OpenAPI 3, `dist/public-api/v1/openapi.yml` in the pinned `n8n`
 * package, through `npm pack`: n8n is not installed) and writes the part the n8n tools use, with every
 * `$ref` inlined, to test/fakes/n8n/openapi.json — the contract the fake n8n of the tests enforces.
 *
 *   npm run n8n:openapi
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { N8N_API_VERSION as N8N_VERSION } from '../../src/n8n/client.ts';
import { CACHE_DIR } from '../catalog/n8n/fetch.ts';

export const OPENAPI_FILE = 'test/fakes/n8n/openapi.json';

/** The operations the 31 tools call (src/tools/n8n). */
const USED: Record<string, string[]> = {
  '/workflows': ['get', 'post'],
  '/workflows/{workflowId}': ['get', 'put', 'delete'],
  '/workflows/{workflowId}/activate': ['post'],
  '/workflows/{workflowId}/deactivate': ['post'],
  '/workflows/{workflowId}/tags': ['get', 'put'],
  '/executions': ['get'],
  '/executions/{executionId}': ['get', 'delete'],
  '/credentials': ['get', 'post'],
  '/credentials/{credentialId}': ['delete'],
  '/credentials/schema/{credentialTypeName}': ['get'],
  '/tags': ['get', 'post'],
  '/tags/{tagId}': ['get', 'put', 'delete'],
  '/users': ['get', 'post'],
  '/users/{id}': ['get', 'delete'],
  '/variables': ['get', 'post'],
  '/variables/{id}': ['delete'],
  '/projects': ['get', 'post'],
  '/projects/{projectId}': ['delete'],
  '/audit': ['post'],
};

function fetchSpec(): Record<string, any> {
  const dir = join(CACHE_DIR, `n8n-${N8N_VERSION}`);
  const file = join(dir, 'package', 'dist', 'public-api', 'v1', 'openapi.yml');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    console.error(`fetching n8n@${N8N_VERSION} (npm pack)…`);
    const pack = spawnSync('npm', ['pack', `n8n@${N8N_VERSION}`, '--pack-destination', dir], { encoding: 'utf8' });
    if (pack.status !== 0) throw new Error(`npm pack n8n@${N8N_VERSION} failed: ${pack.stderr.trim().split('\n').at(-1)}`);
    const tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
    const tar = spawnSync('tar', ['xzf', tarball, '-C', dir, 'package/dist/public-api/v1/openapi.yml'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`could not extract openapi.yml: ${tar.stderr}`);
  }
  // The YAML has unquoted dates in examples; keep them strings as JSON would.
  return parse(readFileSync(file, 'utf8'), { version: '1.2', schema: 'core' });
}

/** Inlines `#/components/...` references (the used part of n8n's spec has no cycles). */
function inline(node: unknown, spec: Record<string, any>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, spec, seen));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`cyclic $ref ${ref}`);
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, key) => at?.[key], spec);
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    return inline(target, spec, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, spec, seen)]));
}

const spec = fetchSpec();
const paths: Record<string, unknown> = {};
for (const [path, methods] of Object.entries(USED)) {
  const item = spec.paths[path];
  if (!item) throw new Error(`n8n ${N8N_VERSION} has no ${path}`);
  paths[path] = Object.fromEntries(methods.map((m) => [m, inline(item[m] ?? fail(`${m} ${path}`), spec)]));
}
function fail(what: string): never {
  throw new Error(`n8n ${N8N_VERSION} has no ${what}`);
}
const out = {
  openapi: spec.openapi,
  info: { ...spec.info, 'x-n8n-version': N8N_VERSION, 'x-note': 'The operations the n8n tools use, $refs inlined (npm run n8n:openapi).' },
  security: spec.security,
  components: { securitySchemes: spec.components.securitySchemes },
  paths,
};
writeFileSync(OPENAPI_FILE, `${JSON.stringify(out, null, 1)}\n`);
console.error(`wrote ${OPENAPI_FILE}: ${Object.keys(paths).length} paths from n8n ${N8N_VERSION}`);
