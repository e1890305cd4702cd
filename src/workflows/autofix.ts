/**
 * autofix_workflow's core: the fixes a workflow needs that can be made without guessing, each with
 * what it changes and how sure it is, and the workflow with the sure ones made. Pure: (workflow,
 * catalog) → fixes; nothing uncertain is applied, and the input is never changed.
 */
import { own, setOwn, type Dict } from '../lib/ownKeys';
import { connectionMap, isDict, isTarget, targetLists, targetsOf, type ConnectionMap, type TargetList } from './connectionMap';
import { expressionParts, looksLikeExpression, referencedNodes, renameReferences, strings } from './expressions';
import { clip, clipPath, MAX_FINDINGS, quote, type ValidationResult } from './findings';
import { versionChoices } from './instanceVersions';
import type { NodeCatalog } from './nodeCatalog';
import { parametersByName } from './parameters';
import { portsOfNode, type NodePorts } from './ports';
import { closeMatches, editDistance, servesWebhook } from './validateNode';
import { STICKY_NOTE, validateWorkflow } from './validateWorkflow';
import { isExpression, isPlainObject, type Values } from './values';

/** high: applied; medium and low: listed for the caller to decide. */
type Confidence = 'high' | 'medium' | 'low';

interface Fix {
  kind: string;
  node: string | null;
  path?: string;
  /** What changes, from what to what. */
  description: string;
  confidence: Confidence;
  applied: boolean;
}

export interface AutofixResult {
  /** The first MAX_FINDINGS fixes; `omitted` counts the rest, `applied` all that were made. */
  fixes: Fix[];
  omitted: number;
  applied: number;
  /** The workflow with the high-confidence fixes made. */
  workflow: unknown;
  before: ValidationResult;
  after: ValidationResult;
}

type Node = Values & { name: string; type: string; typeVersion: number; parameters?: Values; id?: unknown; webhookId?: unknown };
interface Draft {
  nodes: unknown[];
  connections: ConnectionMap;
}

export interface AutofixOptions {
  /** Makes new webhook ids; crypto.randomUUID by default (tests pass a predictable one). */
  newId?: () => string;
}

export function autofix(workflow: unknown, catalog: NodeCatalog, options: AutofixOptions = {}): AutofixResult {
  const before = validateWorkflow(workflow, catalog);
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) return { fixes: [], omitted: 0, applied: 0, workflow, before, after: before };
  const copy = structuredClone(workflow) as Values & Draft;
  copy.connections = connectionMap(copy.connections);
  const draft: Draft = copy;
  const fixes: Fix[] = [];
  let omitted = 0;
  let made = 0;
  const note = (fix: Omit<Fix, 'applied'>, apply: () => void) => {
    const applied = fix.confidence === 'high';
    if (applied) {
      apply();
      made++;
    }
    if (fixes.length === MAX_FINDINGS) omitted++;
    else fixes.push({ ...fix, ...(fix.path === undefined ? {} : { path: clipPath(fix.path) }), description: clip(fix.description, 500), applied });
  };
  const newId = options.newId ?? (() => crypto.randomUUID());
  // Sticky notes hold prose, not settings: never changed.
  const nodes = () =>
    draft.nodes.filter((n): n is Node => isPlainObject(n) && typeof n.name === 'string' && typeof n.type === 'string' && n.type !== STICKY_NOTE);
  for (const pass of [nodeTypes, typeVersions, expressions, optionValues, webhookIds]) pass(nodes(), catalog, note, newId);
  connectionsByName(draft, nodes(), note);
  selfConnections(draft, note);
  connectionPorts(draft, nodes(), catalog, note);
  duplicateConnections(draft, note);
  filterSingleValues(nodes(), before, note);
  return { fixes, omitted, applied: made, workflow: copy, before, after: validateWorkflow(copy, catalog) };
}

type Note = (fix: Omit<Fix, 'applied'>, apply: () => void) => void;

/** A misspelt n8n type with one close match, or a type written without its package. */
function nodeTypes(nodes: Node[], catalog: NodeCatalog, note: Note): void {
  for (const node of nodes) {
    if (catalog.newest(node.type)) continue;
    const matches = closeMatches(node.type, catalog.typeNames(), 5);
    if (matches.length === 0) continue;
    const short = (t: string) => t.slice(t.lastIndexOf('.') + 1).toLowerCase();
    const exact = matches.filter((m) => short(m) === short(node.type));
    const sure = exact.length === 1 || (matches.length === 1 && editDistance(short(matches[0]!), short(node.type), 2) <= 2);
    const to = exact.length === 1 ? exact[0]! : matches[0]!;
    note(
      {
        kind: 'node_type',
        node: node.name,
        path: 'type',
        description: sure
          ? `type ${quote(node.type)} → "${to}"`
          : `type ${quote(node.type)} is unknown; it may be ${matches.map((m) => `"${m}"`).join(' or ')}`,
        confidence: sure ? 'high' : 'low',
      },
      () => (node.type = to),
    );
  }
}

/**
 * A typeVersion the node does not have, or the n8n this server drives lacks → the nearest it has (the
 * highest below it, else the lowest).
 */
function typeVersions(nodes: Node[], catalog: NodeCatalog, note: Note): void {
  for (const node of nodes) {
    const choices = versionChoices(catalog, node.type);
    if (!choices || typeof node.typeVersion !== 'number' || !choices.lacks(node.typeVersion)) continue;
    const { versions, holder } = choices;
    const below = versions.filter((v) => v < node.typeVersion);
    const to = below.length ? below.at(-1)! : versions[0]!;
    note(
      {
        kind: 'type_version',
        node: node.name,
        path: 'typeVersion',
        description: `typeVersion ${node.typeVersion} → ${to} (${holder} has ${versions.join(', ')})`,
        confidence: 'high',
      },
      () => (node.typeVersion = to),
    );
  }
}

/**
 * Expressions: `{{ $json.x }}` without the `=` that makes n8n evaluate it (→ "=" added), a last `{{`
 * left open (→ closed at the end), `$('Name')` naming a node that differs from a real one only in case
 * or spaces, or by one or two letters where only one node is that close (→ that node).
 */
function expressions(nodes: Node[], _catalog: NodeCatalog, note: Note): void {
  const names = new Set(nodes.map((n) => n.name));
  const near = nearNames(nodes.map((n) => n.name));
  for (const node of nodes) {
    if (!isPlainObject(node.parameters)) continue;
    for (const string of strings(node.parameters, 'parameters')) {
      const { value } = string;
      if (looksLikeExpression(value)) {
        note(
          {
            kind: 'expression_prefix',
            node: node.name,
            path: string.path,
            description: `${clip(string.path)}: "=" added so n8n evaluates the expression`,
            confidence: 'high',
          },
          () => string.set(`=${value}`),
        );
        continue;
      }
      if (!isExpression(value)) continue;
      let fixed = value;
      if (expressionParts(value).unclosed) {
        fixed = `${value.trimEnd()} }}`;
        note(
          {
            kind: 'expression_closed',
            node: node.name,
            path: string.path,
            description: `${clip(string.path)}: the last "{{" closed with "}}" at the end`,
            confidence: 'high',
          },
          () => string.set(fixed),
        );
      }
      // All of a string's references are pointed at their nodes in one pass over it.
      const renames = new Map<string, string>();
      for (const ref of new Set(expressionParts(fixed).code.flatMap(referencedNodes))) {
        if (names.has(ref)) continue;
        const close = near(ref);
        if (close.length !== 1) continue;
        const to = close[0]!;
        note(
          {
            kind: 'node_reference',
            node: node.name,
            path: string.path,
            description: `${clip(string.path)}: reference to ${quote(ref)}, which is not a node, → ${quote(to)}`,
            confidence: 'high',
          },
          () => renames.set(ref, to),
        );
      }
      if (renames.size > 0) string.set(renameReferences(fixed, renames));
    }
  }
}

/**
 * Comparison steps spent per call looking for node names a letter or two from a reference: far more
 * than real workflows need (a few broken references among a few hundred names), and a bound on what a
 * workflow made of thousands of such references and names can cost. Once spent, no near name is
 * found: those references stay as they are, and validation names them.
 */
const NEAR_NAME_STEPS = 5_000_000;

/**
 * The names a reference may have meant: those that differ from it only in case or surrounding spaces,
 * else those a letter or two from it. Each reference is looked up once.
 */
function nearNames(names: string[]): (ref: string) => string[] {
  const byForm = new Map<string, string[]>();
  const byLength = new Map<number, string[]>();
  for (const name of names) {
    const form = name.trim().toLowerCase();
    (byForm.get(form) ?? byForm.set(form, []).get(form)!).push(name);
    (byLength.get(name.length) ?? byLength.set(name.length, []).get(name.length)!).push(name);
  }
  let steps = NEAR_NAME_STEPS;
  const found = new Map<string, string[]>();
  const search = (ref: string): string[] => {
    const same = byForm.get(ref.trim().toLowerCase());
    if (same) return same;
    const close: string[] = [];
    for (let length = ref.length - 2; length <= ref.length + 2; length++) {
      for (const name of byLength.get(length) ?? []) {
        // editDistance with limit 2 computes at most 5 cells per character.
        steps -= 5 * Math.min(name.length, ref.length);
        if (steps < 0) return [];
        if (editDistance(name, ref, 2) <= 2) close.push(name);
      }
    }
    return close;
  };
  return (ref) => found.get(ref) ?? found.set(ref, search(ref)).get(ref)!;
}

/** A choice outside its list that differs from one choice only in case, or by a letter or two. */
function optionValues(nodes: Node[], catalog: NodeCatalog, note: Note): void {
  for (const node of nodes) {
    const spec = typeof node.typeVersion === 'number' ? catalog.describe(node.type, node.typeVersion) : null;
    if (!spec || !isPlainObject(node.parameters)) continue;
    for (const [name, value] of Object.entries(node.parameters)) {
      if (typeof value !== 'string' || value.startsWith('=')) continue;
      const choices = (parametersByName(spec.parameters).get(name) ?? [])
        .filter((p) => p.type === 'enum' && !p.dynamic_options)
        .flatMap((p) => p.enum_values ?? []);
      if (choices.length === 0 || choices.some((c) => String(c) === value)) continue;
      const lower = value.toLowerCase();
      const texts = choices.filter((c): c is string => typeof c === 'string');
      const sameButCase = texts.filter((c) => c.toLowerCase() === lower);
      const near = [...new Set(sameButCase.length ? sameButCase : texts.filter((c) => editDistance(c.toLowerCase(), lower, 2) <= 2))];
      if (near.length !== 1) continue;
      const parameters = node.parameters;
      note(
        {
          kind: 'option_value',
          node: node.name,
          path: `parameters.${name}`,
          description: `parameters.${name} ${quote(value)} → "${near[0]}"`,
          confidence: 'high',
        },
        () => setOwn(parameters, name, near[0]),
      );
    }
  }
}

/**
 * A condition whose operation takes no right value ("is true", "exists") without `singleValue: true` on
 * its operator, as the validation found it: set, as n8n's editor sets it (the right value is then not read).
 */
function filterSingleValues(nodes: Node[], before: ValidationResult, note: Note): void {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  for (const finding of [...before.errors, ...before.warnings]) {
    if (finding.code !== 'filter_single_value_missing' || finding.node === null || !finding.path?.endsWith('.operator.singleValue')) continue;
    const operator = valueAt(byName.get(finding.node), finding.path.slice(0, -'.singleValue'.length));
    if (!isPlainObject(operator)) continue;
    note(
      {
        kind: 'filter_single_value',
        node: finding.node,
        path: finding.path,
        description: `${finding.path} set to true: "${String(operator.type)}" "${String(operator.operation)}" takes no right value`,
        confidence: 'high',
      },
      () => setOwn(operator, 'singleValue', true),
    );
  }
}

/** The value at a findings path (`parameters.rules.values[0].conditions`) inside a node, if there is one. */
function valueAt(node: unknown, path: string): unknown {
  let at = node;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (index !== undefined) at = Array.isArray(at) ? at[Number(index)] : undefined;
    else at = isPlainObject(at) ? own(at, key!) : undefined;
  }
  return at;
}

/** Webhook, form and chat triggers without their webhookId, or a Webhook without its path. */
function webhookIds(nodes: Node[], catalog: NodeCatalog, note: Note, newId: () => string): void {
  for (const node of nodes) {
    const spec = typeof node.typeVersion === 'number' ? catalog.describe(node.type, node.typeVersion) : null;
    if (!spec || !servesWebhook(spec)) continue;
    if (typeof node.webhookId !== 'string' || node.webhookId === '') {
      const id = newId();
      note(
        { kind: 'webhook_id', node: node.name, path: 'webhookId', description: `webhookId set to a new UUID (${id})`, confidence: 'high' },
        () => (node.webhookId = id),
      );
    }
    const pathParameter = spec.parameters.find((p) => p.name === 'path' && p.type === 'string');
    const parameters = (node.parameters ??= {});
    if (pathParameter && isPlainObject(parameters) && (parameters.path === undefined || parameters.path === '') && !pathParameter.default_value) {
      note(
        {
          kind: 'webhook_path',
          node: node.name,
          path: 'parameters.path',
          description: 'parameters.path set to the webhookId, as n8n does for a new webhook',
          confidence: 'high',
        },
        () => {
          parameters.path = node.webhookId;
        },
      );
    }
  }
}

/** Connections that name nodes by id, or by a name in another case: by the node's name. */
function connectionsByName(draft: Draft, nodes: Node[], note: Note): void {
  const map = draft.connections;
  const names = new Set(nodes.map((n) => n.name));
  const byId = new Map(nodes.filter((n) => typeof n.id === 'string' && n.id !== '').map((n) => [n.id as string, n.name]));
  const byLowerName = new Map<string, string[]>();
  for (const n of nodes) {
    const key = n.name.trim().toLowerCase();
    const same = byLowerName.get(key);
    if (same) same.push(n.name);
    else byLowerName.set(key, [n.name]);
  }
  const resolve = (ref: string): { name: string; why: string } | null => {
    if (byId.has(ref)) return { name: byId.get(ref)!, why: 'is its id' };
    const same = byLowerName.get(ref.trim().toLowerCase());
    return same?.length === 1 ? { name: same[0]!, why: 'differs only in case or spaces' } : null;
  };
  for (const source of Object.keys(map)) {
    if (names.has(source)) continue;
    const real = resolve(source);
    // Moved onto connections the node has, both must be well formed to merge.
    if (!real || !(map[real.name] === undefined || (wellFormed(map[source]) && wellFormed(map[real.name])))) continue;
    note(
      {
        kind: 'connection_by_name',
        node: real.name,
        path: `connections.${source}`,
        description: `connections from ${quote(source)} (which ${real.why}) → from ${quote(real.name)}`,
        confidence: 'high',
      },
      () => {
        const moved = map[source];
        delete map[source];
        map[real.name] = merged(map[real.name], moved);
      },
    );
  }
  for (const list of targetLists(map)) {
    for (const target of targetsOf(list)) {
      if (!isTarget(target) || names.has(target.node)) continue;
      const real = resolve(target.node);
      if (real) {
        note(
          {
            kind: 'connection_by_name',
            node: list.source,
            path: pathOf(list),
            description: `connection to ${quote(target.node)} (which ${real.why}) → to ${quote(real.name)}`,
            confidence: 'high',
          },
          () => (target.node = real.name),
        );
      }
    }
  }
  // What still names no node is stale: it can never carry data.
  for (const source of Object.keys(map)) {
    if (!names.has(source) && !resolve(source)) {
      note(
        {
          kind: 'stale_connection',
          node: null,
          path: `connections.${source}`,
          description: `connections from ${quote(source)}, which is not a node, removed`,
          confidence: 'high',
        },
        () => delete map[source],
      );
    }
  }
  for (const list of targetLists(map)) {
    const removed = new Set<unknown>();
    for (const target of targetsOf(list)) {
      if (!isTarget(target) || names.has(target.node) || resolve(target.node)) continue;
      note(
        {
          kind: 'stale_connection',
          node: list.source,
          path: pathOf(list),
          description: `connection from ${quote(list.source)} to ${quote(target.node)}, which is not a node, removed`,
          confidence: 'high',
        },
        () => removed.add(target),
      );
    }
    if (removed.size > 0) list.outputs[list.output] = targetsOf(list).filter((t) => !removed.has(t));
  }
}

const pathOf = (list: TargetList) => `connections.${list.source}.${list.type}[${list.output}]`;

/** A source's connections as lists of targets by type, all of them: what can be merged into. */
const wellFormed = (byType: unknown): byType is Dict<unknown[]> =>
  isDict(byType) && Object.values(byType).every((outputs) => Array.isArray(outputs) && outputs.every((targets) => targets === null || Array.isArray(targets)));

/** `moved`'s targets added to `into`'s, output by output (either may be undefined; wellFormed otherwise). */
function merged(into: unknown, moved: unknown): unknown {
  if (!wellFormed(into) || !wellFormed(moved)) return into ?? moved;
  for (const [type, outputs] of Object.entries(moved)) {
    const existing = (into[type] ??= []);
    outputs.forEach((targets, i) => {
      if (Array.isArray(targets)) existing[i] = [...((existing[i] as unknown[] | null | undefined) ?? []), ...targets];
    });
  }
  return into;
}

/**
 * Connections through ports the nodes lack: an AI sub-node wired as main (→ its AI output, into the
 * same kind of input), an output or input index beyond a node that has only one of that kind (→ 0).
 */
function connectionPorts(draft: Draft, nodes: Node[], catalog: NodeCatalog, note: Note): void {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const known = new Map<Node, NodePorts | null>();
  const portsOf = (node: Node) => {
    if (!known.has(node)) {
      const spec = typeof node.typeVersion === 'number' ? catalog.describe(node.type, node.typeVersion) : null;
      known.set(node, !spec || node.disabled ? null : portsOfNode(spec, node));
    }
    return known.get(node)!;
  };
  // Each connection as it was before these fixes: one moved here is not looked at again.
  const connections = [...targetLists(draft.connections)].flatMap((list) => targetsOf(list).map((entry, k) => ({ list, entry, k })));
  const leaving = new Map<TargetList, Set<unknown>>();
  const leave = (list: TargetList, entry: unknown) => leaving.set(list, (leaving.get(list) ?? new Set()).add(entry));
  for (const { list, entry, k } of connections) {
    if (!isTarget(entry)) continue;
    const source = byName.get(list.source);
    const target = byName.get(entry.node);
    if (!source || !target) continue;
    const outputs = portsOf(source)?.outputs;
    const inputs = portsOf(target)?.inputs;
    if (!outputs || !inputs) continue;
    const c = {
      source: list.source,
      target: entry.node,
      outputType: list.type,
      outputIndex: list.output,
      inputType: typeof entry.type === 'string' ? entry.type : list.type,
      inputIndex: typeof entry.index === 'number' ? entry.index : 0,
      path: `${pathOf(list)}[${k}]`,
    };
    const ofType = outputs.filter((p) => p.type === c.outputType);
    const aiTypes = [...new Set(outputs.map((p) => p.type))].filter((t) => t !== 'main');
    if (c.outputType === 'main' && ofType.length === 0 && aiTypes.length === 1) {
      const kind = aiTypes[0]!;
      const byType = draft.connections[c.source];
      if (!isDict(byType) || !canAppend(byType[kind])) continue;
      const takes = inputs.some((p) => p.type === kind);
      note(
        {
          kind: 'ai_connection',
          node: c.source,
          path: c.path,
          description: takes
            ? `${quote(c.source)} → ${quote(c.target)} moved from main to ${kind} (an AI sub-node connects through its ${kind} output)`
            : `${quote(c.source)} is an AI sub-node (${kind}), but ${quote(c.target)} takes no ${kind}: connect it to a node that does`,
          confidence: takes ? 'high' : 'low',
        },
        () => {
          leave(list, entry);
          const into = (byType[kind] ??= []) as unknown[];
          ((into[0] ??= []) as unknown[]).push({ node: c.target, type: kind, index: 0 });
        },
      );
      continue;
    }
    if (ofType.length > 0 && c.outputIndex >= ofType.length && canAppend(list.outputs)) {
      const sure = ofType.length === 1;
      note(
        {
          kind: 'output_index',
          node: c.source,
          path: c.path,
          description: sure
            ? `${quote(c.source)} has one ${clip(c.outputType)} output: the connection to ${quote(c.target)} moved from output ${c.outputIndex} to 0`
            : `${quote(c.source)} has ${ofType.length} ${clip(c.outputType)} outputs (${ofType.map((p, i) => `${i}: ${p.name}`).join(', ')}), not ${c.outputIndex + 1}: choose the one meant for ${quote(c.target)}`,
          confidence: sure ? 'high' : 'low',
        },
        () => {
          leave(list, entry);
          ((list.outputs[0] ??= []) as unknown[]).push(entry);
        },
      );
    }
    const intoType = inputs.filter((p) => p.type === c.inputType);
    if (intoType.length === 1 && c.inputIndex >= 1) {
      note(
        {
          kind: 'input_index',
          node: c.source,
          path: c.path,
          description: `${quote(c.target)} has one ${clip(c.inputType)} input: the connection from ${quote(c.source)} moved from input ${c.inputIndex} to 0`,
          confidence: 'high',
        },
        () => (entry.index = 0),
      );
    }
  }
  for (const [list, gone] of leaving) list.outputs[list.output] = targetsOf(list).filter((t) => !gone.has(t));
}

/** Outputs a target can be added to at output 0: none yet, or a list whose first output is a list or empty. */
const canAppend = (outputs: unknown): boolean =>
  outputs === undefined || (Array.isArray(outputs) && (outputs[0] === null || outputs[0] === undefined || Array.isArray(outputs[0])));

/** A node connected to itself: never a way data should go. */
function selfConnections(draft: Draft, note: Note): void {
  for (const list of targetLists(draft.connections)) {
    const toItself = (t: unknown) => isTarget(t) && t.node === list.source;
    if (!targetsOf(list).some(toItself)) continue;
    note(
      {
        kind: 'self_connection',
        node: list.source,
        path: pathOf(list),
        description: `connection from ${quote(list.source)} to itself removed`,
        confidence: 'high',
      },
      () => {
        list.outputs[list.output] = targetsOf(list).filter((t) => !toItself(t));
      },
    );
  }
}

/** The same connection listed more than once. */
function duplicateConnections(draft: Draft, note: Note): void {
  for (const list of targetLists(draft.connections)) {
    const seen = new Set<string>();
    const removed: string[] = [];
    const kept = targetsOf(list).filter((t) => {
      if (!isTarget(t)) return true;
      const key = JSON.stringify([t.node, t.type, t.index ?? 0]);
      if (!seen.has(key)) return seen.add(key);
      removed.push(t.node);
      return false;
    });
    if (removed.length === 0) continue;
    const distinct = [...new Set(removed)];
    const names = distinct.slice(0, 5).map(quote).join(', ') + (distinct.length > 5 ? ` and ${distinct.length - 5} more` : '');
    note(
      {
        kind: 'duplicate_connection',
        node: list.source,
        path: pathOf(list),
        description: `duplicate connection from ${quote(list.source)} to ${names} removed`,
        confidence: 'high',
      },
      () => {
        list.outputs[list.output] = kept;
      },
    );
  }
}

/** What autofix_workflow answers of an autofix: the fixes, the validation before (counted) and after, the fixed workflow. */
export function autofixAnswer(result: AutofixResult) {
  const { before } = result;
  return {
    fixes: result.fixes,
    ...(result.omitted > 0 ? { omitted: { fixes: result.omitted } } : {}),
    applied: result.applied,
    before: {
      valid: before.valid,
      errors: before.errors.length + (before.omitted?.errors ?? 0),
      warnings: before.warnings.length + (before.omitted?.warnings ?? 0),
    },
    after: result.after,
    workflow: result.workflow,
  };
}
