/**
 * A node's parameters against the description of its own typeVersion: required parameters that
 * apply but are empty (as n8n reports them), values of the wrong kind, choices outside an option
 * list, collection shapes, broken expressions; parameters that do not apply are warnings.
 */
import type { NodeSpec, Parameter } from '../catalog/nodeSpec';
import type { Dict } from '../lib/ownKeys';
import { visibility, type Visibility } from './display';
import { expressionParts, looksLikeExpression, strings } from './expressions';
import { checkAssignmentValue } from './assignmentValue';
import { checkFilterValue } from './filterValue';
import { clip, describe, quote, type Findings } from './findings';
import { nearestName } from './nearestName';
import { checkResourceMapperValue } from './resourceMapperValue';
import { givenOf, isExpression, isMissing, isPlainObject, withDefaults, type NodeIdentity, type Values } from './values';

interface Level {
  /** The parameters that may appear here (the node's, or a collection's children). */
  parameters: Parameter[];
  given: Values;
  /** `given` with the defaults of what applies. */
  values: Dict<unknown>;
  root: Values;
  path: string;
  /** Required children are checked (n8n checks them in fixed collections, not in plain collections). */
  checkRequired: boolean;
}

/** `values`: the node's, when the caller has them already (nodeValues). */
export function checkParameters(spec: NodeSpec, node: NodeIdentity & { name: string; parameters: unknown }, out: Findings, values?: Dict<unknown>): void {
  if (node.parameters === undefined) node = { ...node, parameters: {} };
  if (!isPlainObject(node.parameters)) {
    out.error(node.name, 'invalid_parameters', `"parameters" must be an object of parameter values, not ${describe(node.parameters)}.`, 'parameters');
    return;
  }
  const identity: NodeIdentity = { typeVersion: node.typeVersion, nodeType: node.nodeType };
  const all = values ?? withDefaults(spec.parameters, node.parameters, identity);
  checkLevel(
    { parameters: spec.parameters, given: node.parameters, values: all, root: all, path: 'parameters', checkRequired: true },
    identity,
    spec,
    node.name,
    out,
  );
  checkExpressions(node.name, node.parameters, out);
}

/** Expressions hold whatever the node: checked even where the node's description is unknown. */
export function checkExpressions(nodeName: string, parameters: unknown, out: Findings): void {
  for (const string of strings(parameters, 'parameters')) {
    const { value } = string;
    if (isExpression(value) && expressionParts(value).unclosed) {
      out.error(nodeName, 'expression_unclosed', `The expression at ${clip(string.path)} opens "{{" without a closing "}}": ${clip(value, 80)}`, string.path);
    } else if (looksLikeExpression(value)) {
      out.warning(
        nodeName,
        'expression_without_equals',
        `${clip(string.path)} holds "{{ … }}" but does not start with "=", so n8n uses it as plain text. Write "=${clip(value, 40)}" to have it evaluated.`,
        string.path,
      );
    }
  }
}

function checkLevel(level: Level, identity: NodeIdentity, spec: NodeSpec, nodeName: string, out: Findings): void {
  const ctx = { ...identity, values: level.values, root: level.root };
  const seen = new Map<string, Visibility>();
  for (const p of level.parameters) {
    const shown = visibility(p.display_options, ctx);
    seen.set(p.name, best(seen.get(p.name), shown));
    if (shown !== 'shown' || p.type === 'notice' || p.type === 'hidden') continue;
    const path = `${level.path}.${p.name}`;
    if (level.checkRequired && p.required && missing(p, level.values[p.name])) {
      const when = condition(p);
      out.error(
        nodeName,
        'missing_required',
        `Required parameter "${p.display_name ?? p.name}" (${p.name}) is not set${when ? ` (it applies when ${when})` : ''}.${choices(p)}`,
        path,
      );
    }
  }
  const named = parametersByName(level.parameters);
  for (const [name, value] of Object.entries(level.given)) {
    const path = `${level.path}.${name}`;
    const candidates = named.get(name) ?? [];
    if (candidates.length === 0) {
      if (level.path === 'parameters')
        out.warning(
          nodeName,
          'unknown_parameter',
          `${quote(name)} is not a parameter here in ${spec.display_name} v${identity.typeVersion}${knownNames(level.parameters)}.`,
          path,
        );
      else reportUnknown(name, [...named.keys()], `a field of ${clip(level.path)}`, path, Object.keys(level.given), level.checkRequired, nodeName, out);
      continue;
    }
    const shown = candidates.filter((p) => visibility(p.display_options, ctx) !== 'hidden');
    if (shown.length === 0) {
      out.warning(
        nodeName,
        'parameter_not_applicable',
        `"${name}" does not apply with these settings${condition(candidates[0]!) ? ` (it applies when ${condition(candidates[0]!)})` : ''}: n8n ignores it.`,
        path,
      );
      continue;
    }
    // Several parameters of one name may apply (one per operation); the value must suit one of them.
    const problems = shown.map((p) => valueProblem(p, value));
    if (problems.every((x) => x !== null)) {
      const problem = problems.find((x) => x.warning) ?? problems[0]!;
      (problem.warning ? out.warning : out.error).call(out, nodeName, problem.code, `${clip(path)}: ${problem.message}`, path);
    }
    if (problems.some((x) => x === null || x.warning)) {
      const p = shown[problems.findIndex((x) => x === null || x.warning)]!;
      if (!isExpression(value)) checkChildren(p, value, level, identity, spec, nodeName, out);
    }
  }
}

/** Descends into a collection's, fixed collection's or structured parameter's value. */
function checkChildren(p: Parameter, value: unknown, level: Level, identity: NodeIdentity, spec: NodeSpec, nodeName: string, out: Findings): void {
  const path = `${level.path}.${p.name}`;
  if (!isPlainObject(value)) return;
  if (p.type === 'collection' && p.options) {
    checkLevel(
      { parameters: p.options, given: value, values: givenOf(p.options, value), root: level.root, path, checkRequired: false },
      identity,
      spec,
      nodeName,
      out,
    );
  } else if (p.type === 'fixed_collection' && p.options) {
    checkFixedCollection(p, value, path, level, identity, spec, nodeName, out);
  } else if (p.type === 'filter') {
    checkFilterValue(value, path, nodeName, out, convertsTypes(level.root));
  } else if (p.type === 'assignment_collection') {
    checkAssignmentValue(value, path, nodeName, out, ignoresConversionErrors(level.root));
  } else if (p.type === 'resource_mapper') {
    checkResourceMapperValue(value, path, nodeName, out);
  }
}

/**
 * A fixed collection: groups it has, each a list of entries where n8n's description says
 * multipleValues (the node iterates it) and one entry otherwise, each entry's sub-fields.
 */
function checkFixedCollection(
  p: Parameter,
  value: Values,
  path: string,
  level: Level,
  identity: NodeIdentity,
  spec: NodeSpec,
  nodeName: string,
  out: Findings,
): void {
  const groups = p.options ?? [];
  const groupNames = groups.map((g) => g.name);
  for (const [groupName, groupValue] of Object.entries(value)) {
    const group = groups.find((g) => g.name === groupName);
    const groupPath = `${path}.${groupName}`;
    if (!group) {
      reportUnknown(groupName, groupNames, `one of ${p.name}'s groups`, groupPath, Object.keys(value), true, nodeName, out);
      continue;
    }
    if (isExpression(groupValue)) continue;
    if (p.multiple_values && !Array.isArray(groupValue)) {
      out.error(
        nodeName,
        'invalid_shape',
        `${clip(groupPath)} must be a list of ${group.display_name ?? group.name} entries ([{…}, …]): n8n goes through it one entry at a time. Got ${describe(groupValue)}.`,
        groupPath,
      );
      continue;
    }
    if (!p.multiple_values && Array.isArray(groupValue)) {
      out.error(
        nodeName,
        'invalid_shape',
        `${clip(groupPath)} must be one object of ${group.display_name ?? group.name} fields, not a list: ${p.name} holds one entry per group.`,
        groupPath,
      );
      continue;
    }
    const items = Array.isArray(groupValue) ? groupValue : [groupValue];
    for (const [i, item] of items.entries()) {
      const itemPath = Array.isArray(groupValue) ? `${groupPath}[${i}]` : groupPath;
      if (!isPlainObject(item)) {
        out.error(
          nodeName,
          'invalid_shape',
          `${clip(itemPath)} must be an object of ${group.display_name ?? group.name} fields, not ${describe(item)}.`,
          itemPath,
        );
        continue;
      }
      const children = group.options ?? [];
      const values = withDefaults(children, item, identity, level.root);
      checkLevel({ parameters: children, given: item, values, root: level.root, path: itemPath, checkRequired: true }, identity, spec, nodeName, out);
      if (p.multiple_values) checkEntryNamesSomething(children, values, itemPath, nodeName, out);
    }
  }
}

/**
 * A list entry that leaves every text sub-field it always has empty (HTML's extraction rule without
 * its key and CSS selector, say) names nothing to work on. A warning: n8n marks none of them required
 * and runs such entries (real workflows keep the empty row n8n's editor adds, or look up an empty value).
 */
function checkEntryNamesSomething(children: Parameter[], values: Dict<unknown>, itemPath: string, nodeName: string, out: Findings): void {
  const naming = children.filter((c) => c.type === 'string' && !c.display_options && (c.default_value === undefined || c.default_value === ''));
  if (naming.length === 0 || naming.some((c) => values[c.name] !== undefined && values[c.name] !== '')) return;
  out.warning(
    nodeName,
    'empty_entry',
    `${clip(itemPath)} sets none of ${naming.map((c) => `"${c.name}"`).join(', ')}, so n8n runs it with them empty. Write them, or remove the entry.`,
    itemPath,
  );
}

/**
 * A key a level does not have: an error when it is a misspelling of one the level has that the entry
 * does not set (what was meant is then left unset), and any key of a fixed collection's entry (n8n
 * reads only the fields its description lists there and drops the rest with what they hold: real
 * workflows never carry one, 0 in 1,556); a warning otherwise (a plain collection's options, which
 * old workflows keep from other versions).
 */
function reportUnknown(name: string, known: string[], what: string, path: string, given: string[], fixedEntry: boolean, nodeName: string, out: Findings): void {
  const meant = nearestName(name, known);
  if (meant !== undefined && !given.includes(meant)) {
    out.error(
      nodeName,
      'unknown_parameter',
      `${quote(name)} is not ${what}: did you mean ${quote(meant)}? (n8n ignores ${quote(name)} and leaves ${quote(meant)} unset.)`,
      path,
    );
  } else if (fixedEntry) {
    out.error(
      nodeName,
      'unknown_parameter',
      `${quote(name)} is not ${what}, which takes ${known.map(quote).join(', ')}: n8n drops ${quote(name)} and what it holds.`,
      path,
    );
  } else {
    out.warning(nodeName, 'unknown_parameter', `${quote(name)} is not ${what} (${known.join(', ')}).`, path);
  }
}

/** Whether IF, Filter or Switch is set to convert types where required (n8n's looseTypeValidation, a parameter or an option by version). */
function convertsTypes(root: Values): boolean {
  return root.looseTypeValidation === true || (isPlainObject(root.options) && root.options.looseTypeValidation === true);
}

/** Edit Fields' option that makes n8n keep a value it cannot convert to the assignment's type. */
function ignoresConversionErrors(root: Values): boolean {
  return isPlainObject(root.options) && root.options.ignoreConversionErrors === true;
}

const byName = new WeakMap<Parameter[], Map<string, Parameter[]>>();
const known = new WeakMap<Parameter[], string>();

/** The parameters of one level by name (several may share one, each for other settings), once per description. */
export function parametersByName(parameters: Parameter[]): Map<string, Parameter[]> {
  let named = byName.get(parameters);
  if (!named) {
    named = new Map();
    for (const p of parameters) named.set(p.name, [...(named.get(p.name) ?? []), p]);
    byName.set(parameters, named);
  }
  return named;
}

/** "; known: a, b, …" for an unknown parameter's finding, once per description. */
function knownNames(parameters: Parameter[]): string {
  let text = known.get(parameters);
  if (text === undefined) {
    const names = [...new Set(parameters.filter((p) => p.type !== 'notice').map((p) => p.name))];
    text = names.length ? `; known: ${names.slice(0, 30).join(', ')}` : '';
    known.set(parameters, text);
  }
  return text;
}

/** The strongest visibility seen for a name: any shown one makes the name apply. */
function best(a: Visibility | undefined, b: Visibility): Visibility {
  if (a === 'shown' || b === 'shown') return 'shown';
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return 'hidden';
}

function missing(p: Parameter, value: unknown): boolean {
  if (isExpression(value)) return false;
  if (p.multiple_values && Array.isArray(value)) return value.some((v) => isMissing(p, v));
  return isMissing(p, value);
}

interface Problem {
  code: string;
  message: string;
  /** A value n8n 1.x takes: reported as a warning. */
  warning?: boolean;
}

/** What is wrong with a value for a parameter of this kind, or null. Expressions are judged at run time. */
function valueProblem(p: Parameter, value: unknown): Problem | null {
  if (isExpression(value) || value === null || value === undefined) return null;
  if (p.multiple_values && Array.isArray(value) && p.type !== 'fixed_collection') {
    for (const v of value) {
      const problem = valueProblem({ ...p, multiple_values: false }, v);
      if (problem) return problem;
    }
    return null;
  }
  const wrong = (expected: string): Problem => ({ code: 'wrong_type', message: `expected ${expected}, got ${describe(value)}.` });
  switch (p.type) {
    case 'string':
    case 'code':
    case 'url':
    case 'datetime':
    case 'color':
    case 'credential':
      // n8n turns numbers and booleans into text; an object or a list is not text.
      return typeof value === 'object' ? wrong('text') : null;
    case 'number':
    case 'integer':
      if (typeof value === 'number') return null;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return null;
      return wrong('a number');
    case 'boolean':
      // n8n reads "", "true", "false", 0 and 1 by their truth; anything else is a mistake.
      return typeof value === 'boolean' || ['', 'true', 'false', 0, 1].includes(value as never) ? null : wrong('true or false');
    case 'enum':
      return optionProblem(p, value);
    case 'multi_enum':
      if (!Array.isArray(value)) return wrong('a list of choices');
      for (const v of value) {
        const problem = optionProblem(p, v);
        if (problem) return problem;
      }
      return null;
    case 'collection':
      return isPlainObject(value) ? null : { code: 'invalid_shape', message: `expected an object of optional fields, got ${describe(value)}.` };
    case 'fixed_collection':
      return isPlainObject(value)
        ? null
        : {
            code: 'invalid_shape',
            message: `expected an object keyed by ${(p.options ?? []).map((g) => g.name).join(' / ') || 'group name'}, got ${describe(value)}.`,
          };
    case 'assignment_collection':
      return isPlainObject(value) && only(value, ['assignments']) && (value.assignments === undefined || Array.isArray(value.assignments))
        ? null
        : { code: 'invalid_shape', message: `expected {"assignments": [{"id", "name", "value", "type"}]}, got ${describe(value)}.` };
    case 'filter':
      return isPlainObject(value) && only(value, ['conditions', 'combinator', 'options']) && (value.conditions === undefined || Array.isArray(value.conditions))
        ? null
        : { code: 'invalid_shape', message: `expected {"conditions": [...], "combinator": "and"|"or"}, got ${describe(value)}.` };
    case 'resource_mapper':
      return isPlainObject(value) ? null : { code: 'invalid_shape', message: `expected {"mappingMode", "value", ...}, got ${describe(value)}.` };
    case 'resource_locator':
      return locatorProblem(p, value);
    case 'array':
      return Array.isArray(value) ? null : wrong('a list');
    default:
      return null;
  }
}

/** An object whose keys are all among `keys`: how n8n's structured values tell one shape from another. */
const only = (value: Record<string, unknown>, keys: string[]) => Object.keys(value).every((k) => keys.includes(k));

function optionProblem(p: Parameter, value: unknown): Problem | null {
  if (isExpression(value) || p.dynamic_options || !p.enum_values?.length) return null;
  // Compared as text: n8n's editor writes an option's value as declared, but imported JSON may quote
  // numbers. An object or list is never a choice (and String() of one may throw: {"toString": {}}).
  const text = typeof value === 'object' && value !== null ? null : String(value);
  if (p.enum_values.some((v) => v === value || String(v) === text)) return null;
  if (p.legacy_values?.some((v) => String(v) === text)) {
    return {
      code: 'legacy_option',
      warning: true,
      message: `${shown(value)} is a choice of n8n 1.x that n8n 2 removed (now: ${p.enum_values.map((v) => JSON.stringify(v)).join(', ')}): the node runs on n8n 1.x only.`,
    };
  }
  return { code: 'invalid_option', message: `${shown(value)} is not one of the choices: ${p.enum_values.map((v) => JSON.stringify(v)).join(', ')}.` };
}

function locatorProblem(p: Parameter, value: unknown): Problem | null {
  // Before n8n turned a parameter into a resource locator it held the plain value; n8n still reads that.
  if (typeof value === 'string' || typeof value === 'number') return null;
  if (!isPlainObject(value) || !('value' in value)) {
    return { code: 'invalid_shape', message: `expected {"__rl": true, "mode": ${modeList(p)}, "value": …}, got ${describe(value)}.` };
  }
  // A mode of "" is what n8n's editor leaves on some imported locators: n8n runs the value as it is.
  if (p.modes?.length && typeof value.mode === 'string' && value.mode !== '' && !p.modes.includes(value.mode)) {
    return { code: 'invalid_option', message: `mode ${shown(value.mode)} is not one of ${modeList(p)}.` };
  }
  return locatorValueProblem(p, value.mode, value.value);
}

/** Longer values are not matched: n8n's patterns are not written for them, and the check must stay cheap. */
const LONGEST_MATCHED = 2000;

/** A value still to be filled in, as the catalog's examples write one: `<Document>`. */
const PLACEHOLDER = /^<[^<>]+>$/;

/**
 * n8n's own check of a locator's value against its mode's pattern (an issue n8n stops the run on).
 * Placeholders are left to the rest of the validation: they are no value yet.
 */
function locatorValueProblem(p: Parameter, mode: unknown, value: unknown): Problem | null {
  const rule = p.locator_modes?.find((m) => m.name === mode);
  if (!rule?.pattern || typeof value !== 'string' || value === '' || value.length > LONGEST_MATCHED || PLACEHOLDER.test(value) || isExpression(value))
    return null;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^${rule.pattern}$`);
  } catch {
    return null;
  }
  if (pattern.test(value)) return null;
  const example = rule.placeholder ? ` (${clip(rule.placeholder, 80)})` : '';
  return {
    code: 'invalid_locator_value',
    message: `${shown(value)} is not a valid value for mode "${rule.name}": ${rule.error ?? `n8n wants it to match ${rule.pattern}`}${example}.`,
  };
}

const modeList = (p: Parameter) => (p.modes?.length ? p.modes.map((m) => JSON.stringify(m)).join(' | ') : '"id"');

/** When a parameter applies, as `resource=message, operation=post`. */
function condition(p: { display_options?: Parameter['display_options'] }): string | undefined {
  const show = p.display_options?.show;
  if (!show) return undefined;
  const parts = Object.entries(show)
    .filter(([name]) => !name.startsWith('@'))
    .map(([name, values]) => `${name}=${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('|')}`);
  return parts.length ? parts.join(', ') : undefined;
}

function choices(p: Parameter): string {
  if (p.type !== 'enum' || !p.enum_values?.length || p.dynamic_options) return '';
  return ` Choices: ${p.enum_values
    .slice(0, 20)
    .map((v) => JSON.stringify(v))
    .join(', ')}.`;
}

/** A caller's value as JSON, clipped: a message quotes it, not all of it. */
const shown = (value: unknown): string => clip(JSON.stringify(value) ?? String(value), 80);
