/**
 * Which configurations of a node `npm run catalog:observe` runs, derived from its description alone:
 * n8n's defaults, then each choice of every parameter that switches others (one whose name another
 * parameter's display conditions read: Merge's `mode`, `combineBy`, `joinMode`; Date & Time's
 * `operation`), nested where a choice reveals another switch, then each option of the chosen
 * configuration that changes the output by itself (a boolean option turned on, an output field
 * renamed). Slots the defaults leave empty are filled from the sample items (sample.ts): a field name
 * where n8n wants one, an expression reading the field where it wants a value, a condition on a number
 * where it wants conditions. Pure.
 */
import type { OptionValue, Parameter } from '../../../src/catalog/nodeSpec.ts';
import { visibility } from '../../../src/workflows/display.ts';
import { isPlainObject, withDefaults } from '../../../src/workflows/values.ts';
import { fieldFor, OTHER_FIELD, RENAMED_FIELD, SAMPLE_FIELDS } from './sample.ts';

export interface Configuration {
  /** The switching choices and options that make it, in words (`mode=combine, combineBy=combineByFields`). */
  label: string;
  /** The node's parameters as a workflow would hold them. */
  parameters: Record<string, unknown>;
}

/** A switch with this many choices or fewer is observed in each. */
const SHORT_LIST = 5;

/** More than this many configurations of one node version are not run (Merge has about 30). */
export const MAX_CONFIGURATIONS = 40;

/** Field-name slots (n8n names them …Field…, …Property…, …Key…). */
const FIELD_SLOT = /field|property|key/i;
/** Field-name slots that name a field the node writes rather than reads. */
const NEW_FIELD_SLOT = /^(new|destination|output|rename)|(new|destination|output)(field|key|property)/i;
const OTHER_FIELDS_SLOT = /include|exclude/i;
/** Slots for the value a node works on (Crypto's `value`, Date & Time's `date`, `magnitude`). */
const VALUE_SLOT = /^(value|date|startDate|endDate|magnitude)$/;
/** How n8n describes a slot the node writes to ("the property to which to write", "the output field"). */
const WRITE_WORDS = /\b(write|written|output|destination|store|put the|new field|new name)\b/i;
const writesField = (p: Parameter): boolean => NEW_FIELD_SLOT.test(p.name) || WRITE_WORDS.test(p.description);
/** Switches that need what a sample item cannot give (binary data) or state kept between runs. */
const UNOBSERVABLE_CHOICE = /binary/i;

/** Whether a parameter applies among the node's values (they are its top level: conditions read them as root too). */
const shownIn = (p: Parameter, values: Record<string, unknown>, ctx: Context) =>
  visibility(p.display_options, { values, root: values, typeVersion: ctx.typeVersion, nodeType: ctx.nodeType });

interface Context {
  nodeType: string;
  typeVersion: number;
  filterVersion: number | undefined;
}

/** Every configuration to observe for one node version, the defaults first. */
export function configurations(nodeType: string, typeVersion: number, parameters: Parameter[]): Configuration[] {
  const ctx: Context = { nodeType, typeVersion, filterVersion: filterVersionOf(parameters, typeVersion) };
  const named = namedValues(parameters);
  const switches = switchingParameters(parameters, named);
  const found: Configuration[] = [];
  const expand = (given: Record<string, unknown>, label: string[]) => {
    const values = withDefaults(parameters, given, { typeVersion, nodeType });
    const next = parameters.find((p) => switches.has(p.name) && !Object.hasOwn(given, p.name) && shownIn(p, values, ctx) === 'shown');
    if (!next) {
      found.push({ label: label.join(', ') || 'defaults', parameters: filled(parameters, given, ctx) });
      return;
    }
    for (const choice of choicesOf(next, named)) expand({ ...given, [next.name]: choice }, [...label, `${next.name}=${String(choice)}`]);
  };
  expand({}, []);
  // Past the cap, every first choice keeps configurations (Merge's four modes, not the first mode's
  // many), and the switches' combinations come before single options.
  const bases = roundRobin(found);
  const options = roundRobin(found.flatMap((c) => optionVariants(parameters, c, ctx)));
  return dedupe([...bases, ...options]).slice(0, MAX_CONFIGURATIONS);
}

/** The values other parameters' display conditions name, per parameter they read. */
function namedValues(parameters: Parameter[]): Map<string, Set<unknown>> {
  const named = new Map<string, Set<unknown>>();
  const visit = (ps: Parameter[]) => {
    for (const p of ps) {
      for (const conditions of [p.display_options?.show, p.display_options?.hide]) {
        for (const [key, values] of Object.entries(conditions ?? {})) {
          if (key.startsWith('@')) continue;
          const name = key.replace(/^\//, '');
          const set = named.get(name) ?? new Set();
          for (const v of values) set.add(v);
          named.set(name, set);
        }
      }
      if (p.options) visit(p.options);
    }
  };
  visit(parameters);
  return named;
}

/** Parameters whose value another parameter's display conditions read. */
function switchingParameters(parameters: Parameter[], named: ReadonlyMap<string, unknown>): Set<string> {
  return new Set(
    parameters
      .filter((p) => named.has(p.name) && (p.type === 'enum' || p.type === 'boolean') && !p.dynamic_options && !UNOBSERVABLE_CHOICE.test(p.name))
      .map((p) => p.name),
  );
}

/**
 * A switch's choices worth a configuration each: all of a short list (Split Out's `include`: each
 * keeps other fields differently); of a long one, the default and every choice another parameter's
 * conditions name (Date & Time's `format` brings in `customFormat` only for `custom`: its seven other
 * formats differ in one string, not in what the node does).
 */
function choicesOf(p: Parameter, named: ReadonlyMap<string, ReadonlySet<unknown>>): OptionValue[] {
  if (p.type === 'boolean') return [p.default_value === true, p.default_value !== true];
  const choices = (p.enum_values ?? []).filter((v) => !(p.legacy_values ?? []).includes(v));
  const revealing = named.get(p.name) ?? new Set();
  if (choices.length <= SHORT_LIST) return choices;
  const kept = choices.filter((v) => v === p.default_value || revealing.has(v));
  return kept.length > 0 ? kept : choices;
}

/** The defaults with `given` on top and every empty slot filled from the sample items. */
function filled(parameters: Parameter[], given: Record<string, unknown>, ctx: Context): Record<string, unknown> {
  const values = withDefaults(parameters, given, { typeVersion: ctx.typeVersion, nodeType: ctx.nodeType });
  const out: Record<string, unknown> = {};
  for (const p of parameters) {
    // Left empty unless n8n needs it, the node works on it, or a switch brought it in (a field list of `include: selected`).
    if (!Object.hasOwn(values, p.name) && !p.required && !VALUE_SLOT.test(p.name) && !(FIELD_SLOT.test(p.name) && p.display_options?.show)) continue;
    if (shownIn(p, values, ctx) === 'hidden') continue;
    out[p.name] = fill(p, values[p.name], ctx);
  }
  return out;
}

/** A parameter's value with its empty slots filled (fixed collections get one entry if they have none). */
function fill(p: Parameter, value: unknown, ctx: Context): unknown {
  switch (p.type) {
    case 'string':
    case 'datetime':
      if (FIELD_SLOT.test(p.name)) {
        if (writesField(p)) return value === '' || value === undefined ? RENAMED_FIELD : value;
        if (typeof value === 'string' && SAMPLE_FIELDS.has(value)) return value;
        // Fields to keep beside, or leave out of, what the node works on: another field than that one.
        return OTHER_FIELDS_SLOT.test(p.name) ? OTHER_FIELD : fieldFor(ctx.nodeType);
      }
      if (value !== '' && value !== undefined) return value;
      return p.required || VALUE_SLOT.test(p.name) ? `={{ $json.${fieldFor(ctx.nodeType)} }}` : value;
    case 'assignment_collection':
      return isPlainObject(value) && Array.isArray(value.assignments) && value.assignments.length > 0 ? value : oneAssignment(ctx);
    case 'filter':
      return isPlainObject(value) && Array.isArray(value.conditions) && value.conditions.some(hasLeftValue) ? value : numberCondition(ctx);
    case 'fixed_collection': {
      const current = isPlainObject(value) ? value : {};
      const out: Record<string, unknown> = {};
      for (const group of p.options ?? []) {
        const entries = current[group.name];
        const list = Array.isArray(entries) ? entries : isPlainObject(entries) ? [entries] : [];
        const items = list.length > 0 || !holdsFieldSlot(group) ? list : [{}];
        if (items.length === 0) continue;
        const filledItems = items.map((item) => fillCollection(group.options ?? [], isPlainObject(item) ? item : {}, ctx));
        out[group.name] = p.multiple_values === false ? filledItems[0] : filledItems;
      }
      return out;
    }
    default:
      return value;
  }
}

function fillCollection(options: Parameter[], given: Record<string, unknown>, ctx: Context): Record<string, unknown> {
  const out: Record<string, unknown> = { ...given };
  for (const o of options) {
    if (o.type === 'notice') continue;
    const current = Object.hasOwn(given, o.name) ? given[o.name] : o.default_value;
    const value = fill(o, current, ctx);
    if (value !== undefined) out[o.name] = value;
  }
  return out;
}

const holdsFieldSlot = (group: Parameter): boolean =>
  (group.options ?? []).some((o) => (o.type === 'string' && FIELD_SLOT.test(o.name)) || o.type === 'filter');

const hasLeftValue = (condition: unknown): boolean => isPlainObject(condition) && condition.leftValue !== '' && condition.leftValue !== undefined;

/** "Set `renamed` to the sample field the node works on": Edit Fields with one field. */
const oneAssignment = (ctx: Context) => ({
  assignments: [{ id: 'observed-assignment', name: RENAMED_FIELD, value: `={{ $json.${fieldFor(ctx.nodeType)} }}`, type: 'string' }],
});

/** "The sample's number field is greater than 2": some sample items pass, some do not. */
function numberCondition(ctx: Context): Record<string, unknown> {
  return {
    conditions: [{ id: 'observed-condition', leftValue: '={{ $json.score }}', rightValue: 2, operator: { type: 'number', operation: 'gt' } }],
    combinator: 'and',
    options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', ...(ctx.filterVersion ? { version: ctx.filterVersion } : {}) },
  };
}

function filterVersionOf(parameters: Parameter[], typeVersion: number): number | undefined {
  const pairs = parameters.flatMap((p) => [p, ...(p.options ?? []).flatMap((o) => [o, ...(o.options ?? [])])]).flatMap((p) => p.filter_versions ?? []);
  return pairs.find(([tv]) => tv === typeVersion)?.[1] ?? pairs.at(-1)?.[1];
}

/**
 * The configuration with one output-changing option set: each boolean option of its `options` (or
 * `additionalOptions`) collection turned on, and each option naming an output field renamed.
 */
function optionVariants(parameters: Parameter[], base: Configuration, ctx: Context): Configuration[] {
  const variants: Configuration[] = [];
  for (const holder of parameters.filter((p) => p.type === 'collection' && Object.hasOwn(base.parameters, p.name))) {
    const shownHolders = parameters.filter((p) => p.name === holder.name);
    const applies = shownHolders.find((p) => shownIn(p, base.parameters, ctx) !== 'hidden');
    if (applies !== holder) continue;
    for (const option of holder.options ?? []) {
      const shown = shownIn(option, base.parameters, ctx);
      if (shown === 'hidden' || UNOBSERVABLE_CHOICE.test(option.name)) continue;
      let value: unknown;
      if (option.type === 'boolean' && option.default_value !== true) value = true;
      else if (option.type === 'string' && NEW_FIELD_SLOT.test(option.name)) value = RENAMED_FIELD;
      else if (option.type === 'string' && /fieldname/i.test(option.name)) value = RENAMED_FIELD;
      else continue;
      const current = isPlainObject(base.parameters[holder.name]) ? (base.parameters[holder.name] as Record<string, unknown>) : {};
      variants.push({
        label: `${base.label}, ${holder.name}.${option.name}=${String(value)}`,
        parameters: { ...base.parameters, [holder.name]: { ...current, [option.name]: value } },
      });
    }
  }
  return variants;
}

function dedupe(configurations: Configuration[]): Configuration[] {
  const seen = new Set<string>();
  return configurations.filter((c) => {
    const key = JSON.stringify(c.parameters);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Configurations taken in turn from each group of the same first choice, in their order. */
function roundRobin(configurations: Configuration[]): Configuration[] {
  const groups = [...Map.groupBy(configurations, (c) => c.label.split(', ')[0]!).values()];
  const out: Configuration[] = [];
  for (let i = 0; out.length < configurations.length; i++) for (const group of groups) if (i < group.length) out.push(group[i]!);
  return out;
}
