/**
 * Reads values out of a package's compiled JavaScript without running it: the files are parsed
 * (TypeScript's parser) and only literal structure is evaluated — object, array, string, number and
 * boolean literals, template strings whose parts are such values, string concatenation, spreads, and
 * names and member expressions that lead to such values in the same file or in files it requires
 * (relative requires inside the package; `exports.X = …`, `module.exports`, tsc's
 * `Object.defineProperty(exports, …)` and `__exportStar`, TypeScript enums). tsc's helpers for
 * spreads (`Object.assign`, `__assign`, `__spreadArray`) are read as the merges they stand for.
 * Anything else — a call, a function, a condition, a value of another package — is `Dropped` with
 * its reason, never executed: the containers holding it leave it out and count it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** A value that is not statically known, and why. */
export class Dropped {
  constructor(readonly reason: string) {}
}

/** A class declared in the package, with the module it is in. */
export class ClassRef {
  constructor(
    readonly node: ts.ClassLikeDeclaration,
    readonly module: Module,
  ) {}
}

/** `new C(…)` of a class of the package: what a versioned node's version map holds. */
export class Instance {
  constructor(
    readonly cls: ClassRef,
    readonly args: unknown[],
  ) {}
}

/** A value of another package (`require('n8n-workflow').X.Y`), by its path. */
export class External {
  constructor(
    readonly name: string,
    readonly path: string[],
  ) {}
}

/**
 * n8n-workflow's constants that node descriptions name (`NodeConnectionType.Main` → 'main'), as
 * n8n-workflow defines them: the only values read from outside the package.
 */
const CONNECTION_TYPES: Record<string, string> = {
  Main: 'main',
  AiAgent: 'ai_agent',
  AiChain: 'ai_chain',
  AiDocument: 'ai_document',
  AiEmbedding: 'ai_embedding',
  AiLanguageModel: 'ai_languageModel',
  AiMemory: 'ai_memory',
  AiOutputParser: 'ai_outputParser',
  AiRetriever: 'ai_retriever',
  AiReranker: 'ai_reranker',
  AiTextSplitter: 'ai_textSplitter',
  AiTool: 'ai_tool',
  AiVectorStore: 'ai_vectorStore',
};
const N8N_WORKFLOW: Record<string, Record<string, string>> = { NodeConnectionType: CONNECTION_TYPES, NodeConnectionTypes: CONNECTION_TYPES };

/** Files larger than this are not parsed (bundles with their dependencies inlined). */
const LARGEST_FILE = 4 << 20;
/** Evaluation steps one reader takes at most: a description that needs more is not plain data. */
const MOST_STEPS = 5_000_000;

type Binding = { expr: ts.Expression; scope: Scope } | { value: unknown };

/** Names visible where an expression is: a function's locals and parameters, then its module's. */
export class Scope {
  private readonly bindings = new Map<string, Binding>();
  private readonly memo = new Map<string, unknown>();

  constructor(
    readonly module: Module,
    private readonly parent?: Scope,
  ) {}

  bind(name: string, binding: Binding): void {
    this.bindings.set(name, binding);
  }

  lookup(name: string): { binding: Binding; scope: Scope } | undefined {
    const binding = this.bindings.get(name);
    if (binding) return { binding, scope: this };
    return this.parent?.lookup(name);
  }

  memoized(name: string, compute: () => unknown): unknown {
    if (this.memo.has(name)) return this.memo.get(name);
    this.memo.set(name, new Dropped('circular reference'));
    const value = compute();
    this.memo.set(name, value);
    return value;
  }
}

/** One parsed file of the package: its top-level names and what it exports. */
export class Module {
  readonly scope: Scope;
  /** `exports.X = …` and the like: export name → expression. */
  readonly exported = new Map<string, ts.Expression>();
  /** Modules whose exports this one re-exports (`__exportStar(require('./x'), exports)`). */
  readonly starFrom: ts.Expression[] = [];
  /** `module.exports = …`. */
  whole?: ts.Expression;

  constructor(
    readonly file: string,
    readonly source: ts.SourceFile,
  ) {
    this.scope = new Scope(this);
  }
}

/** Reads the files of one package folder; every value it gives is plain data or Dropped. */
export class StaticReader {
  private readonly modules = new Map<string, Module | Dropped>();
  private steps = 0;
  /** Values left out of descriptions, by reason. */
  readonly dropped: Record<string, number> = {};

  constructor(readonly root: string) {}

  /** The module of a file of the package (a path relative to the package folder, or absolute inside it). */
  module(file: string): Module | Dropped {
    const path = resolve(this.root, file);
    const known = this.modules.get(path);
    if (known) return known;
    const module = this.parse(path);
    this.modules.set(path, module);
    return module;
  }

  /** What a module exports under `name`. */
  exportOf(module: Module, name: string, seen = new Set<Module>()): unknown {
    if (seen.has(module)) return new Dropped('circular re-export');
    seen.add(module);
    if (module.whole) return this.member(this.evaluate(module.whole, module.scope), name);
    const expr = module.exported.get(name);
    if (expr) return module.scope.memoized(`exports.${name}`, () => this.evaluate(expr, module.scope));
    for (const from of module.starFrom) {
      const other = this.evaluate(from, module.scope);
      if (!(other instanceof Module)) continue;
      const value = this.exportOf(other, name, seen);
      if (!(value instanceof Dropped) || value.reason !== 'not exported') return value;
    }
    return new Dropped('not exported');
  }

  /** A value as data: classes, modules and other packages' values become Dropped. */
  plain(value: unknown): unknown {
    if (value instanceof Module) return this.moduleObject(value);
    if (value instanceof ClassRef || value instanceof Instance) return new Dropped('class');
    if (value instanceof External) return new Dropped(`value of ${value.name}`);
    return value;
  }

  /** Counts a value left out of a description. */
  drop(value: Dropped): void {
    this.dropped[value.reason] = (this.dropped[value.reason] ?? 0) + 1;
  }

  /** An expression's value: data, a ClassRef, Instance, Module or External, or Dropped. Never runs anything. */
  evaluate(expr: ts.Expression, scope: Scope): unknown {
    if (++this.steps > MOST_STEPS) return new Dropped('too much to evaluate');
    if (ts.isParenthesizedExpression(expr)) return this.evaluate(expr.expression, scope);
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
    if (ts.isNumericLiteral(expr)) return Number(expr.text);
    if (expr.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (expr.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (expr.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isVoidExpression(expr)) return undefined;
    if (ts.isPrefixUnaryExpression(expr)) return this.prefix(expr, scope);
    if (ts.isTemplateExpression(expr)) return this.template(expr, scope);
    if (ts.isBinaryExpression(expr)) return this.binary(expr, scope);
    if (ts.isObjectLiteralExpression(expr)) return this.object(expr, scope);
    if (ts.isArrayLiteralExpression(expr)) return this.array(expr.elements, scope);
    if (ts.isIdentifier(expr)) return this.identifier(expr.text, scope);
    if (ts.isPropertyAccessExpression(expr)) return this.member(this.evaluate(expr.expression, scope), expr.name.text);
    if (ts.isElementAccessExpression(expr)) {
      const key = this.evaluate(expr.argumentExpression, scope);
      if (typeof key !== 'string' && typeof key !== 'number') return new Dropped('computed member');
      return this.member(this.evaluate(expr.expression, scope), String(key));
    }
    if (ts.isCallExpression(expr)) return this.call(expr, scope);
    if (ts.isNewExpression(expr)) {
      const cls = this.evaluate(expr.expression, scope);
      if (!(cls instanceof ClassRef)) return new Dropped('call');
      return new Instance(
        cls,
        (expr.arguments ?? []).map((a) => this.evaluate(a, scope)),
      );
    }
    if (ts.isClassExpression(expr)) return new ClassRef(expr, scope.module);
    if (ts.isFunctionExpression(expr) || ts.isArrowFunction(expr)) return new Dropped('function');
    if (ts.isConditionalExpression(expr)) return new Dropped('condition');
    return new Dropped(ts.SyntaxKind[expr.kind] ?? 'expression');
  }

  /** Follows names to the expression they are bound to (`const nodeVersions = {…}`), for reading its parts. */
  expressionOf(expr: ts.Expression, scope: Scope): { expr: ts.Expression; scope: Scope } {
    for (let i = 0; i < 20 && ts.isIdentifier(expr); i++) {
      const found = scope.lookup(expr.text);
      if (!found || !('expr' in found.binding)) break;
      ({ expr, scope } = found.binding);
    }
    return { expr: ts.isParenthesizedExpression(expr) ? expr.expression : expr, scope };
  }

  private parse(path: string): Module | Dropped {
    const inside = relative(this.root, path);
    if (inside.startsWith('..') || !existsSync(path)) return new Dropped('file not in the package');
    if (statSync(path).size > LARGEST_FILE) return new Dropped('file too large');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const module = new Module(path, source);
    for (const statement of source.statements) this.declare(statement, module);
    return module;
  }

  /** Records what a top-level statement declares or exports; nothing is evaluated yet. */
  private declare(statement: ts.Statement, module: Module): void {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) bindDeclaration(d, module.scope);
    } else if (ts.isClassDeclaration(statement) && statement.name) {
      module.scope.bind(statement.name.text, { value: new ClassRef(statement, module) });
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      module.scope.bind(statement.name.text, { value: new Dropped('function') });
    } else if (ts.isExpressionStatement(statement)) {
      const enumValue = readEnum(statement.expression);
      if (enumValue) {
        module.scope.bind(enumValue.name, { value: enumValue.value });
        if (enumValue.exported) module.exported.set(enumValue.name, ts.factory.createIdentifier(enumValue.name));
        return;
      }
      this.declareExport(statement.expression, module);
    }
  }

  private declareExport(expr: ts.Expression, module: Module): void {
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      // `exports.a = exports.b = value`: every target gets the innermost value.
      const targets: ts.Expression[] = [];
      let value: ts.Expression = expr;
      while (ts.isBinaryExpression(value) && value.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        targets.push(value.left);
        value = value.right;
      }
      if (ts.isVoidExpression(value)) return;
      for (const target of targets) {
        if (isModuleExports(target)) module.whole = value;
        const name = exportTarget(target);
        if (name !== undefined) module.exported.set(name, value);
      }
      return;
    }
    if (!ts.isCallExpression(expr)) return;
    const callee = calleeName(expr);
    const [first, second, third] = expr.arguments;
    if (callee === 'Object.defineProperty' && first && isExportsObject(first) && second && ts.isStringLiteral(second) && third) {
      const value = definedValue(third);
      if (value) module.exported.set(second.text, value);
    } else if ((callee === '__exportStar' || callee === '__export' || callee === 'tslib.__exportStar') && first) {
      module.starFrom.push(first);
    }
  }

  private prefix(expr: ts.PrefixUnaryExpression, scope: Scope): unknown {
    const operand = this.evaluate(expr.operand, scope);
    if (typeof operand !== 'number') return new Dropped('computed value');
    if (expr.operator === ts.SyntaxKind.MinusToken) return -operand;
    if (expr.operator === ts.SyntaxKind.PlusToken) return operand;
    return new Dropped('computed value');
  }

  private template(expr: ts.TemplateExpression, scope: Scope): unknown {
    let text = expr.head.text;
    for (const span of expr.templateSpans) {
      const part = this.evaluate(span.expression, scope);
      if (typeof part !== 'string' && typeof part !== 'number') return new Dropped('template with a computed part');
      text += String(part) + span.literal.text;
    }
    return text;
  }

  private binary(expr: ts.BinaryExpression, scope: Scope): unknown {
    if (expr.operatorToken.kind === ts.SyntaxKind.CommaToken) return this.evaluate(expr.right, scope);
    if (expr.operatorToken.kind !== ts.SyntaxKind.PlusToken) return new Dropped('computed value');
    const left = this.evaluate(expr.left, scope);
    const right = this.evaluate(expr.right, scope);
    if ((typeof left === 'string' || typeof left === 'number') && (typeof right === 'string' || typeof right === 'number')) {
      if (typeof left === 'string' || typeof right === 'string') return String(left) + String(right);
    }
    return new Dropped('computed value');
  }

  private object(expr: ts.ObjectLiteralExpression, scope: Scope): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const property of expr.properties) {
      if (ts.isSpreadAssignment(property)) {
        this.spreadInto(result, this.plain(this.evaluate(property.expression, scope)));
        continue;
      }
      if (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) {
        const key = this.propertyKey(property.name, scope);
        if (key instanceof Dropped) {
          this.drop(key);
          continue;
        }
        const value = this.plain(ts.isPropertyAssignment(property) ? this.evaluate(property.initializer, scope) : this.identifier(property.name.text, scope));
        if (value instanceof Dropped) this.drop(value);
        else define(result, key, value);
        continue;
      }
      this.drop(new Dropped('function'));
    }
    return result;
  }

  private spreadInto(result: Record<string, unknown>, value: unknown): void {
    if (value instanceof Dropped) this.drop(value);
    else if (isRecord(value)) for (const [k, v] of Object.entries(value)) define(result, k, v);
    else if (typeof value === 'string' || Array.isArray(value)) for (const [k, v] of Object.entries(value)) define(result, k, v);
  }

  private array(elements: readonly ts.Expression[], scope: Scope): unknown[] {
    const result: unknown[] = [];
    for (const element of elements) {
      if (ts.isSpreadElement(element)) {
        const value = this.plain(this.evaluate(element.expression, scope));
        if (Array.isArray(value)) result.push(...(value as unknown[]));
        else this.drop(value instanceof Dropped ? value : new Dropped('spread of a non-list'));
        continue;
      }
      if (ts.isOmittedExpression(element)) continue;
      const value = this.plain(this.evaluate(element, scope));
      if (value instanceof Dropped) this.drop(value);
      else result.push(value);
    }
    return result;
  }

  private propertyKey(name: ts.PropertyName, scope: Scope): string | Dropped {
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
    if (ts.isNumericLiteral(name)) return String(Number(name.text));
    if (ts.isComputedPropertyName(name)) {
      const key = this.evaluate(name.expression, scope);
      return typeof key === 'string' || typeof key === 'number' ? String(key) : new Dropped('computed key');
    }
    return new Dropped('computed key');
  }

  private identifier(name: string, scope: Scope): unknown {
    if (name === 'undefined') return undefined;
    const found = scope.lookup(name);
    // A file reading its own exports (`exports.fields` beside `exports.operations = […]`).
    if (!found && name === 'exports') return scope.module;
    if (!found && name === 'module') return { exports: scope.module };
    if (!found) return new Dropped('unknown name');
    const { binding, scope: owner } = found;
    if ('value' in binding) return binding.value;
    return owner.memoized(name, () => this.evaluate(binding.expr, binding.scope));
  }

  /** `object.name`, for data, modules, other packages' values and n8n-workflow's constants. */
  private member(object: unknown, name: string): unknown {
    if (object instanceof Dropped) return object;
    if (object instanceof Module) {
      const value = this.exportOf(object, name);
      // tsc's `__importDefault(require(x)).default` of a module without a default export is the module itself.
      return name === 'default' && value instanceof Dropped && value.reason === 'not exported' ? object : value;
    }
    if (object instanceof External) {
      const table = object.name === 'n8n-workflow' && object.path.length === 1 ? N8N_WORKFLOW[object.path[0]!] : undefined;
      if (table && Object.hasOwn(table, name)) return table[name];
      return new External(object.name, [...object.path, name]);
    }
    if (isRecord(object) || Array.isArray(object)) {
      return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
    }
    return new Dropped('member of a non-object');
  }

  /** Calls are not run; only require() and tsc's spread and import helpers are read for what they mean. */
  private call(expr: ts.CallExpression, scope: Scope): unknown {
    const callee = calleeName(expr);
    const args = expr.arguments;
    if (callee === 'require' && args.length === 1 && ts.isStringLiteral(args[0]!)) return this.require(args[0].text, scope.module);
    if (
      (callee === '__importDefault' ||
        callee === '__importStar' ||
        callee === '__toESM' ||
        callee === 'tslib.__importDefault' ||
        callee === 'tslib.__importStar') &&
      args[0]
    )
      return this.evaluate(args[0], scope);
    if (callee === 'Object.assign' || callee === '__assign' || callee === 'tslib.__assign') {
      const result: Record<string, unknown> = {};
      for (const arg of args) this.spreadInto(result, this.plain(this.evaluate(arg, scope)));
      return result;
    }
    if ((callee === '__spreadArray' || callee === 'tslib.__spreadArray') && args.length >= 2) {
      return this.array(
        [args[0]!, args[1]!].map((a) => ts.factory.createSpreadElement(a)),
        scope,
      );
    }
    return new Dropped('call');
  }

  private require(specifier: string, from: Module): unknown {
    if (!specifier.startsWith('.')) return new External(specifier, []);
    const base = resolve(dirname(from.file), specifier);
    const path = [base, `${base}.js`, `${base}.cjs`, `${base}.json`, join(base, 'index.js')].find((p) => existsSync(p) && statSync(p).isFile());
    if (!path) return new Dropped('required file not found');
    if (path.endsWith('.json')) {
      const inside = relative(this.root, path);
      if (inside.startsWith('..')) return new Dropped('file not in the package');
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as unknown;
      } catch {
        return new Dropped('unreadable JSON');
      }
    }
    return this.module(path);
  }

  private moduleObject(module: Module): unknown {
    if (module.whole) return this.plain(this.evaluate(module.whole, module.scope));
    const result: Record<string, unknown> = {};
    for (const name of module.exported.keys()) {
      const value = this.plain(this.exportOf(module, name));
      if (!(value instanceof Dropped)) define(result, name, value);
    }
    return result;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets a key even when it is `__proto__`: data read from a package never reaches a prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Binds `const x = …` and `const { a, b: c } = …` to their expressions. */
export function bindDeclaration(d: ts.VariableDeclaration, scope: Scope): void {
  if (!d.initializer) return;
  if (ts.isIdentifier(d.name)) {
    scope.bind(d.name.text, { expr: d.initializer, scope });
    return;
  }
  if (!ts.isObjectBindingPattern(d.name)) return;
  for (const element of d.name.elements) {
    if (!ts.isIdentifier(element.name) || element.dotDotDotToken) continue;
    const key = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : element.name.text;
    scope.bind(element.name.text, { expr: ts.factory.createPropertyAccessExpression(d.initializer, key), scope });
  }
}

/** `a.b.c` as text for a call's callee, when it is a plain name path. */
function calleeName(expr: ts.CallExpression): string | undefined {
  let callee: ts.Expression = expr.expression;
  // tsc calls imported functions as `(0, module_1.fn)(…)`.
  if (ts.isParenthesizedExpression(callee) && ts.isBinaryExpression(callee.expression) && callee.expression.operatorToken.kind === ts.SyntaxKind.CommaToken)
    callee = callee.expression.right;
  const parts: string[] = [];
  while (ts.isPropertyAccessExpression(callee)) {
    parts.unshift(callee.name.text);
    callee = callee.expression;
  }
  if (!ts.isIdentifier(callee)) return undefined;
  parts.unshift(callee.text);
  // tslib_1.__assign and the like.
  if (parts.length === 2 && /^tslib(_\d+)?$/.test(parts[0]!)) parts[0] = 'tslib';
  return parts.join('.');
}

const isModuleExports = (e: ts.Expression) =>
  ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'module' && e.name.text === 'exports';
const isExportsObject = (e: ts.Expression) => (ts.isIdentifier(e) && e.text === 'exports') || isModuleExports(e);

/** `exports.X` / `module.exports.X` / `exports["X"]`: X. */
function exportTarget(e: ts.Expression): string | undefined {
  if (ts.isPropertyAccessExpression(e) && isExportsObject(e.expression)) return e.name.text;
  if (ts.isElementAccessExpression(e) && isExportsObject(e.expression) && ts.isStringLiteral(e.argumentExpression)) return e.argumentExpression.text;
  return undefined;
}

/** The value of `Object.defineProperty(exports, "X", { value: v })` or `{ get: function () { return v; } }`. */
function definedValue(descriptor: ts.Expression): ts.Expression | undefined {
  if (!ts.isObjectLiteralExpression(descriptor)) return undefined;
  for (const p of descriptor.properties) {
    const name = p.name && ts.isIdentifier(p.name) ? p.name.text : undefined;
    if (name === 'value' && ts.isPropertyAssignment(p)) return p.initializer;
    if (name !== 'get') continue;
    const fn = ts.isPropertyAssignment(p) ? p.initializer : ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) ? p : undefined;
    const body = fn && (ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn)) ? fn.body : undefined;
    const only = body?.statements.length === 1 ? body.statements[0] : undefined;
    if (only && ts.isReturnStatement(only) && only.expression) return only.expression;
    if (fn && ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return fn.body;
  }
  return undefined;
}

/**
 * A TypeScript enum as tsc emits it — `(function (E) { E["A"] = "a"; E[E["B"] = 1] = "B"; })(E || (exports.E = E = {}))` —
 * read from its assignments of literals.
 */
function readEnum(expr: ts.Expression): { name: string; value: Record<string, unknown>; exported: boolean } | undefined {
  if (!ts.isCallExpression(expr) || expr.arguments.length !== 1) return undefined;
  const fn = ts.isParenthesizedExpression(expr.expression) ? expr.expression.expression : expr.expression;
  const name0 = ts.isFunctionExpression(fn) && fn.parameters.length === 1 ? fn.parameters[0]!.name : undefined;
  if (!ts.isFunctionExpression(fn) || !name0 || !ts.isIdentifier(name0)) return undefined;
  const param = name0.text;
  const arg = expr.arguments[0]!;
  if (!ts.isBinaryExpression(arg) || arg.operatorToken.kind !== ts.SyntaxKind.BarBarToken || !ts.isIdentifier(arg.left)) return undefined;
  const name = arg.left.text;
  const value: Record<string, unknown> = {};
  for (const statement of fn.body.statements) {
    if (!ts.isExpressionStatement(statement)) return undefined;
    const entry = enumEntry(statement.expression, param);
    if (!entry) return undefined;
    define(value, entry[0], entry[1]);
  }
  return { name, value, exported: /\bexports\./.test(arg.right.getText()) };
}

function enumEntry(expr: ts.Expression, param: string): [string, unknown] | undefined {
  if (!ts.isBinaryExpression(expr) || expr.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isElementAccessExpression(expr.left)) return undefined;
  if (!ts.isIdentifier(expr.left.expression) || expr.left.expression.text !== param) return undefined;
  const key = expr.left.argumentExpression;
  // E[E["B"] = 1] = "B": the reverse mapping of a numeric member; the member itself is what descriptions use.
  if (ts.isBinaryExpression(key)) return enumEntry(key, param);
  if (!ts.isStringLiteral(key)) return undefined;
  const right = expr.right;
  if (ts.isStringLiteral(right)) return [key.text, right.text];
  if (ts.isNumericLiteral(right)) return [key.text, Number(right.text)];
  if (ts.isPrefixUnaryExpression(right) && right.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(right.operand))
    return [key.text, -Number(right.operand.text)];
  return undefined;
}
