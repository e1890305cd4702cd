/**
 * Which community node packages the catalog imports: the list chosen for everyone
 * (scripts/catalog/community/packages.json, written by choosePackages.ts) and the deployment's own
 * (catalog.packages.json at the repository root, written by `npm run catalog:add`, absent until then).
 * Both are read strictly: a malformed entry is an error that names it.
 */
import { existsSync, readFileSync } from 'node:fs';

export const COMMUNITY_PACKAGES_FILE = 'scripts/catalog/community/packages.json';
export const OPERATOR_PACKAGES_FILE = 'catalog.packages.json';

/** A package of the chosen list, pinned, with the facts it was chosen by. */
export interface CommunityPackage {
  name: string;
  version: string;
  /** n8n lists the package as verified (from n8n-mcp's nodes.db; false where it is not listed there). */
  verified: boolean;
  /** Monthly npm downloads, as nodes.db has them (absent where it does not list the package). */
  downloads?: number;
  /** Node types of the package that real workflows of the corpus use, with how many workflows use each. */
  used_in_workflows?: Record<string, number>;
}

export interface PackageList {
  about: string;
  packages: CommunityPackage[];
}

/** An operator's own package: from npm, pinned, or a local folder (relative to the repository root). */
export type OperatorPackage = { npm: string; version: string } | { folder: string };

export interface OperatorList {
  about: string;
  packages: OperatorPackage[];
}

/** npm's rule for package names, scoped or not. */
export const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** n8n's own packages: not community. */
export const N8N_OWN = new Set(['n8n-nodes-base', '@n8n/n8n-nodes-langchain']);

/** The package a node type names: what precedes its last dot (a scope may hold dots). CUSTOM.* and n8n's own are none. */
export function packageOfType(type: string): string | undefined {
  const dot = type.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const name = type.slice(0, dot);
  return N8N_OWN.has(name) || name === 'CUSTOM' || !NPM_NAME.test(name) ? undefined : name;
}

const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

export function readPackageList(file = COMMUNITY_PACKAGES_FILE): PackageList {
  const raw = readJson(file);
  if (typeof raw.about !== 'string' || !Array.isArray(raw.packages)) throw new Error(`${file}: expected {"about": "…", "packages": [...]}`);
  const seen = new Set<string>();
  const packages = raw.packages.map((p: unknown, i: number): CommunityPackage => {
    const at = `${file}: packages[${i}]`;
    if (!isObject(p)) throw new Error(`${at} is not an object`);
    checkPinned(p.name, p.version, at);
    if (typeof p.verified !== 'boolean') throw new Error(`${at} (${String(p.name)}) needs "verified": true or false`);
    if (p.downloads !== undefined && typeof p.downloads !== 'number') throw new Error(`${at} (${String(p.name)}): "downloads" must be a number`);
    if (seen.has(p.name as string)) throw new Error(`${at}: ${String(p.name)} is listed twice`);
    seen.add(p.name as string);
    return p as unknown as CommunityPackage;
  });
  return { about: raw.about, packages };
}

/** The deployment's own packages; none when the file does not exist. */
export function readOperatorList(file = OPERATOR_PACKAGES_FILE): OperatorList {
  if (!existsSync(file)) return { about: OPERATOR_ABOUT, packages: [] };
  const raw = readJson(file);
  if (!Array.isArray(raw.packages)) throw new Error(`${file}: expected {"packages": [...]}`);
  const packages = raw.packages.map((p: unknown, i: number): OperatorPackage => {
    const at = `${file}: packages[${i}]`;
    if (isObject(p) && typeof p.folder === 'string' && p.folder !== '' && Object.keys(p).length === 1) return { folder: p.folder };
    if (isObject(p) && Object.keys(p).length === 2) {
      checkPinned(p.npm, p.version, at);
      return { npm: p.npm as string, version: p.version as string };
    }
    throw new Error(`${at} must be {"npm": "name", "version": "x.y.z"} or {"folder": "./path"}`);
  });
  return { about: typeof raw.about === 'string' ? raw.about : OPERATOR_ABOUT, packages };
}

export const OPERATOR_ABOUT =
  "This deployment's own n8n node packages, imported into its node catalog beside n8n's and the community's (docs/community-nodes.md). Add one with `npm run catalog:add -- <npm name[@version]|./folder>`.";

function checkPinned(name: unknown, version: unknown, at: string): void {
  if (typeof name !== 'string' || !NPM_NAME.test(name)) throw new Error(`${at}: ${JSON.stringify(name)} is not an npm package name`);
  if (typeof version !== 'string' || !VERSION.test(version)) throw new Error(`${at} (${name}): ${JSON.stringify(version)} is not an exact version`);
}

function readJson(file: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  if (!isObject(raw)) throw new Error(`${file}: expected a JSON object`);
  return raw;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
