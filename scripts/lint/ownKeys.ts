/**
 * `npm run lint`: no property named by a string a caller may choose is read or written on an ordinary
 * object (src/lib/ownKeys.ts says why). In production code (src/), it refuses
 * - `o[key]` where `key` is any string (not a literal or a union of literals) and `o` is not an array
 *   or a Dict: read it with `own(o, key)`, write it with `setOwn`, or keep such keys in a Map or a Dict;
 * - `key in o` with such a key: `hasOwn(o, key)`;
 * - `as Dict<…>` outside src/lib/ownKeys.ts: a Dict is made by `dict()` or `toDict()`.
 * Prints each place as `file:line: text` and exits 1 if there is any.
 */
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
const HELPER = 'src/lib/ownKeys.ts';

export interface Finding {
  file: string;
  line: number;
  text: string;
  rule: 'computed-key' | 'in-operator' | 'dict-cast';
}

/** The places in `src/` that break the rule. */
export function findComputedKeys(): Finding[] {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json could not be read');
  const sources = config.fileNames.filter((f) => relative(root, f).startsWith('src/'));
  const program = ts.createProgram(sources, config.options);
  const checker = program.getTypeChecker();
  const anyString = (type: ts.Type): boolean =>
    type.isUnion() ? type.types.some(anyString) : (type.flags & (ts.TypeFlags.String | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TemplateLiteral)) !== 0;
  const isDict = (type: ts.Type): boolean =>
    type.isUnion() ? type.types.every((t) => isDict(t) || (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) !== 0) : type.getProperties().some((p) => String(p.escapedName).startsWith('__@nullPrototype'));
  const isList = (type: ts.Type): boolean => checker.isArrayType(type) || checker.isTupleType(type) || (type.flags & ts.TypeFlags.StringLike) !== 0;
  const findings: Finding[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(root, source.fileName);
    if (!file.startsWith('src/') || file === HELPER) continue;
    const report = (node: ts.Node, rule: Finding['rule']) =>
      findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText().replace(/\s+/g, ' ').slice(0, 100), rule });
    const visit = (node: ts.Node): void => {
      if (ts.isElementAccessExpression(node)) {
        const object = checker.getNonNullableType(checker.getTypeAtLocation(node.expression));
        if (anyString(checker.getTypeAtLocation(node.argumentExpression)) && !isList(object) && !isDict(object)) report(node, 'computed-key');
      } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword && !ts.isPrivateIdentifier(node.left)) {
        if (anyString(checker.getTypeAtLocation(node.left)) && !isDict(checker.getTypeAtLocation(node.right))) report(node, 'in-operator');
      } else if (ts.isAsExpression(node) && /^Dict\s*</.test(node.type.getText())) {
        report(node, 'dict-cast');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const findings = findComputedKeys();
  const why = {
    'computed-key': 'a string key on an ordinary object: own(o, key) / setOwn(o, key, v), or a Map or Dict',
    'in-operator': '`in` finds inherited keys: hasOwn(o, key)',
    'dict-cast': 'a Dict is made by dict() or toDict(), not cast',
  };
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.text}  (${why[f.rule]})`);
  console.log(findings.length === 0 ? 'own keys: no computed key on an ordinary object' : `own keys: ${findings.length} place(s); see src/lib/ownKeys.ts`);
  process.exit(findings.length === 0 ? 0 : 1);
}
