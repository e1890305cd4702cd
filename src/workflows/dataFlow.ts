/**
 * Data flow where output shapes are known: an expression that reads a top-level field the items it
 * reads cannot have (`$json.email` right after a Webhook, whose items hold the request as
 * `{headers, params, query, body}`) gets undefined, every time. Shapes flow along main connections
 * from the nodes that decide them (src/workflows/outputShapes.ts) through nodes that pass items on;
 * where any source's shape is unknown, nothing is said.
 */
import type { Connection, Endpoint } from './connections';
import { expressionParts, liveCode, strings } from './expressions';
import { clip, quote, type Findings } from './findings';
import { adjacency } from './graph';
import { outputShape, type OutputShape, type ShapedNode } from './outputShapes';
import { isExpression, isPlainObject } from './values';

const QUOTED = String.raw`(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")`;
const FIELD = String.raw`(?:\??\.([A-Za-z_$][\w$]*)|\[\s*${QUOTED}\s*\])`;
/** `$json.x`, `$input.item.json.x`, `$input.first().json.x`: the node's own input item. */
const INPUT_READ = new RegExp(String.raw`\$(?:json|input\.(?:item|first\(\)|last\(\))\.json)${FIELD}(\s*\()?`, 'g');
/** `$('Name').item.json.x` (or first(), last()), `$node["Name"].json.x`: another node's item. */
const NODE_READ = new RegExp(String.raw`\$(?:\(\s*${QUOTED}\s*\)\.(?:item|first\(\)|last\(\))|node\[\s*${QUOTED}\s*\])\.json${FIELD}(\s*\()?`, 'g');

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
const first = (groups: (string | undefined)[]) => groups.find((g) => g !== undefined);

/** A field an expression reads: from the node's input (`node` null) or from the named node's output. */
export interface FieldRead {
  node: string | null;
  field: string;
  /** As written: `$json.email`. */
  text: string;
}

/**
 * The top-level fields a piece of expression code reads, outside comments and string text. A name
 * followed by `(` is a method call (`$json.keys()`, `$json.hasOwnProperty(…)`), not a field.
 */
export function fieldReads(code: string): FieldRead[] {
  const live = liveCode(code);
  const reads: FieldRead[] = [];
  // Read where code reads it: not in a comment or string, not a property of something else (`x.$json`).
  const isLive = (at: number) => live[at] === code[at] && !/[\w$.]/.test(code[at - 1] ?? ' ');
  for (const m of code.matchAll(INPUT_READ)) {
    const field = first([m[1], m[2], m[3]]);
    if (field === undefined || m[4] !== undefined || !isLive(m.index)) continue;
    reads.push({ node: null, field: unescape(field), text: m[0] });
  }
  for (const m of code.matchAll(NODE_READ)) {
    const node = first([m[1], m[2], m[3], m[4]]);
    const field = first([m[5], m[6], m[7]]);
    if (node === undefined || field === undefined || m[8] !== undefined || !isLive(m.index)) continue;
    reads.push({ node: unescape(node), field: unescape(field), text: m[0] });
  }
  return reads;
}

/** Names every plain object answers to (`$json.constructor` is not undefined). */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

interface Source {
  names: string[];
  shape: OutputShape;
}

/**
 * The shape of each node's output, computed in the order data flows (Kahn's order over main
 * connections, no recursion). A node in a loop, or after one, has the shape it puts out whatever it is
 * given (an Edit Fields that keeps only what it sets), else none; its input is known where every node
 * feeding it has a shape.
 */
function outputShapes(
  connections: Connection[],
  byName: Map<string, Endpoint>,
  shaped: Map<string, ShapedNode>,
  pinned: Map<string, unknown>,
): { output: Map<string, Source | null>; input: Map<string, Source | null> } {
  const main = connections.filter((c) => c.outputType === 'main' && c.inputType === 'main' && byName.has(c.source) && byName.has(c.target));
  const parents = adjacency(main.map((c) => [c.target, c.source]));
  const children = adjacency(main.map((c) => [c.source, c.target]));
  const waiting = new Map([...byName.keys()].map((n) => [n, new Set(parents.get(n) ?? []).size]));
  const queue = [...waiting].filter(([, n]) => n === 0).map(([name]) => name);
  const output = new Map<string, Source | null>();
  const input = new Map<string, Source | null>();
  for (let i = 0; i < queue.length; i++) {
    const name = queue[i]!;
    const from = [...new Set(parents.get(name) ?? [])];
    const inShape = from.length === 0 ? null : union(from.map((p) => output.get(p) ?? null));
    input.set(name, inShape);
    const node = shaped.get(name);
    const computed = node && !byName.get(name)!.node.disabled ? outputShape(node, inShape?.shape ?? null) : null;
    const shape = computed && (!pinned.has(name) || pinnedFits(pinned.get(name), computed)) ? computed : null;
    output.set(name, shape ? { names: shape === inShape?.shape ? inShape.names : [name], shape } : null);
    for (const child of new Set(children.get(name) ?? [])) {
      const left = waiting.get(child)! - 1;
      waiting.set(child, left);
      if (left === 0) queue.push(child);
    }
  }
  const looped = [...byName.keys()].filter((name) => !output.has(name));
  for (const name of looped) {
    const node = shaped.get(name);
    const shape = node && !byName.get(name)!.node.disabled ? outputShape(node, null) : null;
    const fits = shape?.closed && (!pinned.has(name) || pinnedFits(pinned.get(name), shape));
    output.set(name, fits ? { names: [name], shape } : null);
  }
  for (const name of looped) {
    const from = [...new Set(parents.get(name) ?? [])];
    input.set(name, from.length === 0 ? null : union(from.map((p) => output.get(p) ?? null)));
  }
  return { output, input };
}

/**
 * Pinned data stands in for a node's output in test runs (production runs ignore it): the shape holds
 * for both only when every pinned item's fields are the shape's (a Webhook's pinned `{body, headers}`).
 */
function pinnedFits(items: unknown, shape: OutputShape): boolean {
  if (!Array.isArray(items)) return false;
  return items.every((item) => {
    const json = isPlainObject(item) && isPlainObject(item.json) ? item.json : item;
    return isPlainObject(json) && Object.keys(json).every((field) => shape.fields.has(field));
  });
}

/** Items from several nodes: the fields any of them has; closed only when all are. Unknown if any is. */
function union(sources: (Source | null)[]): Source | null {
  if (sources.some((s) => s === null)) return null;
  const known = sources as Source[];
  if (known.length === 1) return known[0]!;
  return {
    names: [...new Set(known.flatMap((s) => s.names))],
    shape: { fields: new Map(known.flatMap((s) => [...s.shape.fields])), closed: known.every((s) => s.shape.closed) },
  };
}

/** A field as code reads it: `.name`, or `["name with spaces"]`. */
const dotted = (f: string) => (/^[A-Za-z_$][\w$]*$/.test(f) ? `.${f}` : `[${JSON.stringify(f)}]`);

/** What a read most likely meant: the Webhook's body (or query), or a field that differs in case or prefix. */
function likelyPath(read: FieldRead, fields: Map<string, string>): string {
  const base = read.text.replace(/(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\])\s*$/, '');
  if (fields.has('body') && fields.has('query')) {
    return ` The request's fields are under body (or query, for a query string): ${base}.body${dotted(read.field)}.`;
  }
  const loose = (f: string) => f.toLowerCase().replace(/[^a-z0-9]/g, '');
  const near = [...fields.keys()].find((f) => loose(f) === loose(read.field)) ?? [...fields.keys()].find((f) => f.endsWith(`_${read.field}`));
  if (near !== undefined) return ` Did you mean ${base}${dotted(near)}?`;
  return '';
}

/** Where a node had the field in its input but does not pass it on (Edit Fields without includeOtherFields, Date & Time, Summarize): where to read it instead. */
function notPassedOn(read: FieldRead, source: Source, input: Map<string, Source | null>): string {
  if (source.names.length !== 1) return '';
  const before = input.get(source.names[0]!);
  if (!before?.shape.fields.has(read.field) || before.names.length !== 1) return '';
  return ` ${quote(source.names[0]!)} does not pass on its input's fields: read it from ${quote(before.names[0]!)} ($(${JSON.stringify(before.names[0])}).item.json${dotted(read.field)}), or have ${quote(source.names[0]!)} keep them (its get_node_details says how).`;
}

const listFields = (fields: Map<string, string>) => {
  const names = [...fields.keys()];
  if (names.length === 0) return 'no fields at all';
  const shown = names.slice(0, 12).map(quote).join(', ');
  return `only ${shown}${names.length > 12 ? `, … (${names.length} fields)` : ''}`;
};

/** Reads of fields that the items read cannot have: errors, each naming the likely path. `pinData` is the workflow's. */
export function checkDataFlow(
  connections: Connection[],
  byName: Map<string, Endpoint>,
  shaped: Map<string, ShapedNode>,
  pinData: unknown,
  codeParameters: Map<string, Set<string>>,
  out: Findings,
): void {
  const pinned = new Map(isPlainObject(pinData) ? Object.entries(pinData) : []);
  const { output, input } = outputShapes(connections, byName, shaped, pinned);
  for (const [name, { node }] of byName) {
    if (node.disabled) continue;
    const javaScript = javaScriptParameters(codeParameters.get(name), shaped.get(name));
    for (const string of strings(node.parameters, 'parameters')) {
      // A Code node's JavaScript reads items as expressions do ($json, $input.first().json, $('Node')…).
      const code = isExpression(string.value) ? expressionParts(string.value).code : javaScript.has(string.path) ? [string.value] : [];
      // One finding per distinct read of a parameter, however often it repeats.
      const seen = new Set<string>();
      // Code may set a field on the items it reads ($input.item.json.size = …) and read it after.
      const written = isExpression(string.value) ? new Set<string>() : assignedFields(string.value);
      for (const read of code.flatMap(fieldReads)) {
        if (seen.has(read.text) || written.has(read.field)) continue;
        // Code that reads a field with a fallback (`… || '/tmp'`, `?? 0`, `… ? a : b`, `if (!…)`) expects it may be absent.
        if (!isExpression(string.value) && readsWithFallback(string.value, read.text)) continue;
        seen.add(read.text);
        const source = read.node === null ? input.get(name) : output.get(read.node);
        if (!source?.shape.closed || source.shape.fields.has(read.field) || INHERITED.has(read.field)) continue;
        const from = source.names.map(quote).join(' and ');
        out.error(
          name,
          'field_not_in_input',
          `${clip(string.path)} reads ${clip(read.text.replace(/\s*\($/, ''))}, which is always undefined: the items ${from} ${source.names.length > 1 ? 'send' : 'sends'} have ${listFields(source.shape.fields)}.${likelyPath(read, source.shape.fields) || notPassedOn(read, source, input)}`,
          string.path,
        );
      }
    }
  }
}

/**
 * The paths of a Code node's parameters that hold its JavaScript (`jsCode`; not Python, nor the legacy
 * Function nodes, whose code reads `items`).
 */
function javaScriptParameters(names: Set<string> | undefined, node: ShapedNode | undefined): Set<string> {
  if (!names || names.size === 0 || node?.type !== CODE) return new Set();
  const language = (node.values as Record<string, unknown>).language;
  if (typeof language === 'string' && language.startsWith('python')) return new Set();
  return new Set([...names].filter((n) => !/python/i.test(n)).map((n) => `parameters.${n}`));
}

const CODE = 'n8n-nodes-base.code';

function readsWithFallback(code: string, text: string): boolean {
  for (let at = code.indexOf(text); at >= 0; at = code.indexOf(text, at + 1)) {
    if (/^\s*(?:\|\||\?|&&)/.test(code.slice(at + text.length)) || /(?:!|typeof\s+)\s*$/.test(code.slice(Math.max(0, at - 10), at))) return true;
  }
  return false;
}

/** Property names code assigns to (`x.size = …`, `x['size'] ??= …`), wherever: each may be read after it is set. */
function assignedFields(code: string): Set<string> {
  const assigned = new Set<string>();
  for (const m of code.matchAll(/(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"\n]+)['"]\s*\])\s*(?:[-+*/%]|\|\||&&|\?\?)?=(?!=)/g)) assigned.add(m[1] ?? m[2]!);
  return assigned;
}
