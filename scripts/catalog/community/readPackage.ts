/**
 * The node descriptions of one n8n node package folder (an unpacked npm tarball, or an operator's
 * built folder), read as data: package.json's `n8n.nodes` names the compiled node files, and each
 * node class's description is read statically (staticValue.ts) — `description = {…}` as a class
 * field, `this.description = {…}` in the constructor, or a VersionedNodeType's `baseDescription` and
 * `nodeVersions` map of classes. Nothing of the package is run. A node whose description cannot be
 * read is left out with the reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import type { N8nNode } from '../n8n/mapNode.ts';
import { bindDeclaration, ClassRef, Dropped, External, Instance, isRecord, Scope, StaticReader } from './staticValue.ts';

export interface PackageRead {
  name: string;
  version: string;
  /** One entry per description: a versioned node gives one per group of typeVersions. */
  nodes: N8nNode[];
  leftOut: { file: string; reason: string }[];
  /** Values left out of the descriptions read, by reason (a call, a function…). */
  dropped: Record<string, number>;
}

/** Reads a package folder holding package.json and its built files. */
export function readNodePackage(dir: string): PackageRead {
  const manifestPath = join(dir, 'package.json');
  if (!existsSync(manifestPath)) throw new Error(`${dir} has no package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: unknown; version?: unknown; n8n?: { nodes?: unknown } };
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') throw new Error(`${manifestPath} has no name and version`);
  const files = Array.isArray(manifest.n8n?.nodes) ? manifest.n8n.nodes.filter((f): f is string => typeof f === 'string') : [];
  if (files.length === 0) throw new Error(`${manifest.name} lists no nodes in package.json's "n8n": {"nodes": […]}: not an n8n node package`);
  const reader = new StaticReader(dir);
  const result: PackageRead = { name: manifest.name, version: manifest.version, nodes: [], leftOut: [], dropped: reader.dropped };
  for (const file of files) {
    const read = readNodeFile(reader, file);
    if (typeof read === 'string') result.leftOut.push({ file, reason: read });
    else result.nodes.push(...read);
  }
  return result;
}

/** The descriptions of one `*.node.js` file, or why there are none. */
export function readNodeFile(reader: StaticReader, file: string): N8nNode[] | string {
  const module = reader.module(file);
  if (module instanceof Dropped) return existsSync(join(reader.root, file)) ? module.reason : 'file missing (is the package built?)';
  // n8n loads the class named like the file: Foo for Foo.node.js.
  const className = basename(file).split('.')[0]!;
  const cls = reader.exportOf(module, className);
  if (!(cls instanceof ClassRef)) return `no class ${className} exported`;
  const descriptions = describeClass(reader, cls, []);
  if (typeof descriptions === 'string') return descriptions;
  const codex = codexOf(reader.root, file);
  const nodes: N8nNode[] = [];
  for (const d of descriptions) {
    const problem = whyNotANode(d);
    if (problem) return problem;
    nodes.push(structuredClone({ ...d, ...(codex && !d.codex ? { codex } : {}) }) as unknown as N8nNode);
  }
  return nodes;
}

/** n8n takes a node's codex (categories, aliases, documentation) from the JSON file beside it: Foo.node.json. */
function codexOf(root: string, file: string): N8nNode['codex'] | undefined {
  const path = join(root, `${file}on`);
  if (!file.endsWith('.js') || !existsSync(path)) return undefined;
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!isRecord(raw)) return undefined;
    const { categories, subcategories, alias, resources } = raw;
    return JSON.parse(JSON.stringify({ categories, subcategories, alias, resources })) as N8nNode['codex'];
  } catch {
    return undefined;
  }
}

/** What n8n needs of a description to load the node; the importer needs the same. */
function whyNotANode(d: Record<string, unknown>): string | undefined {
  if (typeof d.name !== 'string' || d.name === '') return 'description has no static name';
  if (typeof d.displayName !== 'string') return 'description has no static displayName';
  const versions = [d.version].flat();
  if (versions.length === 0 || !versions.every((v) => typeof v === 'number')) return 'description has no static version';
  if (!Array.isArray(d.properties)) return 'description has no static properties';
  return undefined;
}

/** A class's descriptions: one, or for a VersionedNodeType one per version class. */
function describeClass(reader: StaticReader, cls: ClassRef, args: unknown[], depth = 0): Record<string, unknown>[] | string {
  if (depth > 5) return 'class hierarchy too deep';
  const ctor = cls.node.members.find(ts.isConstructorDeclaration);
  const scope = constructorScope(cls, ctor, args);
  const base = cls.node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  const baseValue = base ? reader.evaluate(base, cls.module.scope) : undefined;
  const superCall = ctor?.body?.statements
    .filter(ts.isExpressionStatement)
    .map((s) => s.expression)
    .find((e): e is ts.CallExpression => ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.SuperKeyword);
  if (baseValue instanceof External && baseValue.path.at(-1) === 'VersionedNodeType') {
    const [versions, description] = superCall?.arguments ?? [];
    return versions && description
      ? versionedDescriptions(reader, versions, description, scope)
      : 'VersionedNodeType without super(nodeVersions, baseDescription)';
  }
  const assignments = [...(ctor?.body?.statements ?? [])]
    .filter((s): s is ts.ExpressionStatement => ts.isExpressionStatement(s))
    .map((s) => s.expression)
    .filter((e): e is ts.BinaryExpression => ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken);
  const field = cls.node.members.find(
    (m): m is ts.PropertyDeclaration =>
      ts.isPropertyDeclaration(m) && !m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) && memberName(m.name) === 'description',
  );
  const assigned = assignments.filter((e) => isThisMember(e.left, 'description')).at(-1);
  const expr = assigned?.right ?? field?.initializer;
  // The versioned shape written by hand (IVersionedNodeType): `this.nodeVersions = {…}` beside the base description.
  const versionMap = assignments.filter((e) => isThisMember(e.left, 'nodeVersions')).at(-1);
  if (versionMap && assigned) return versionedDescriptions(reader, versionMap.right, assigned.right, scope);
  if (expr) {
    const value = reader.plain(reader.evaluate(expr, assigned ? scope : cls.module.scope));
    return isRecord(value) ? [value] : `description is ${value instanceof Dropped ? `not static (${value.reason})` : 'not an object'}`;
  }
  // A class that only extends another of the package takes its description.
  if (baseValue instanceof ClassRef) {
    const superArgs = superCall ? superCall.arguments.map((a) => reader.evaluate(a, scope)) : args;
    return describeClass(reader, baseValue, superArgs, depth + 1);
  }
  return 'no description found in the class';
}

/** The constructor's parameters bound to the arguments given, and its top-level consts. */
function constructorScope(cls: ClassRef, ctor: ts.ConstructorDeclaration | undefined, args: unknown[]): Scope {
  const scope = new Scope(cls.module, cls.module.scope);
  if (!ctor) return scope;
  for (const [i, p] of ctor.parameters.entries()) {
    if (ts.isIdentifier(p.name)) scope.bind(p.name.text, { value: i < args.length ? args[i] : new Dropped('argument not given') });
  }
  for (const statement of ctor.body?.statements ?? []) {
    if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) bindDeclaration(d, scope);
  }
  return scope;
}

/**
 * A versioned node's `nodeVersions` map and base description (`super(nodeVersions, baseDescription)` of a
 * VersionedNodeType, or the same two assigned in the constructor): each version class's description,
 * on the base description, with the typeVersions that map to it. The base's defaultVersion is n8n's.
 */
function versionedDescriptions(reader: StaticReader, versionsArg: ts.Expression, baseArg: ts.Expression, scope: Scope): Record<string, unknown>[] | string {
  const base = reader.plain(reader.evaluate(baseArg, scope));
  if (!isRecord(base)) return 'baseDescription not static';
  const map = reader.expressionOf(versionsArg, scope);
  if (!ts.isObjectLiteralExpression(map.expr)) return 'nodeVersions not a static map';
  const byClass = new Map<ts.Node, { instance: Instance; versions: number[] }>();
  for (const property of map.expr.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const version = Number(memberName(property.name));
    const instance = reader.evaluate(property.initializer, map.scope);
    if (!Number.isFinite(version) || !(instance instanceof Instance)) {
      reader.drop(new Dropped('node version not static'));
      continue;
    }
    const entry = byClass.get(instance.cls.node) ?? { instance, versions: [] };
    entry.versions.push(version);
    byClass.set(instance.cls.node, entry);
  }
  const descriptions: Record<string, unknown>[] = [];
  for (const { instance, versions } of byClass.values()) {
    const described = describeClass(reader, instance.cls, instance.args);
    if (typeof described === 'string') {
      reader.drop(new Dropped(`node version ${versions.join(',')}: ${described}`));
      continue;
    }
    for (const d of described) {
      descriptions.push({ ...base, ...d, version: versions.length === 1 ? versions[0] : versions.sort((a, b) => a - b), defaultVersion: base.defaultVersion });
    }
  }
  return descriptions.length > 0 ? descriptions : 'no node version readable';
}

function memberName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

const isThisMember = (e: ts.Expression, name: string) =>
  ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword && e.name.text === name;
