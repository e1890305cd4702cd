/**
 * What a node's output items hold, where it follows from the node and its parameters alone: the
 * top-level fields of `json` as n8n's node source writes them (n8n-nodes-base 2.41). Nodes whose
 * output depends on data this cannot see (Code, HTTP responses, app nodes) have no shape: nothing is
 * guessed. Pure: (node type, typeVersion, parameter values with defaults, the input's shape) → shape.
 */
import type { NodeSpec, ObservedBehaviour } from '../catalog/nodeSpec';
import { own } from '../lib/ownKeys';
import { isPlainObject, nodeValues } from './values';

export interface OutputShape {
  /** Top-level fields of each item's `json`, with what each holds. A Map: field names are the user's. */
  fields: Map<string, string>;
  /** Whether items have no other top-level fields: a field not listed is certainly undefined. */
  closed: boolean;
}

/** A node as shapes see it: its values are its parameters with n8n's defaults filled in. */
export interface ShapedNode {
  type: string;
  typeVersion: number;
  values: object;
  /** What the node's configuration nearest these values was seen to do on a real n8n, if observed. */
  observed?: ObservedBehaviour;
  /** The fields of the sample items that run was given. */
  observedSampleFields?: readonly string[];
}

const BASE = 'n8n-nodes-base.';

/** Nodes that pass their input items on unchanged (on every output): their output has their input's shape. */
const PASS_THROUGH = new Set(['if', 'filter', 'switch', 'noOp', 'limit', 'removeDuplicates', 'sort', 'splitInBatches'].map((n) => BASE + n));

const WEBHOOK_FIELDS: [string, string][] = [
  ['headers', 'the request headers, names in lower case'],
  ['params', 'the path parameters (`:id` in the path)'],
  ['query', 'the query string parameters'],
  ['body', 'the request body, parsed (JSON, form fields); {} when the body is binary'],
  ['webhookUrl', 'the URL that was called'],
  ['executionMode', '"test" or "production"'],
];

const SCHEDULE_FIELDS = ['timestamp', 'Readable date', 'Readable time', 'Day of week', 'Year', 'Month', 'Day of month', 'Hour', 'Minute', 'Second', 'Timezone'];

/** Summarize's field names: the aggregation's prefix and the field, brackets and quotes dropped, spaces and dots as `_`. */
const AGGREGATION_PREFIX: Record<string, string> = {
  append: 'appended_',
  average: 'average_',
  concatenate: 'concatenated_',
  count: 'count_',
  countUnique: 'unique_count_',
  max: 'max_',
  min: 'min_',
  sum: 'sum_',
};

const value = (node: ShapedNode, name: string): unknown => own(node.values, name);
const option = (node: ShapedNode, name: string): unknown => {
  const options = value(node, 'options');
  return isPlainObject(options) ? own(options, name) : undefined;
};
const list = (holder: unknown, key: string): unknown[] => {
  const v = isPlainObject(holder) ? own(holder, key) : undefined;
  return Array.isArray(v) ? v : [];
};
const closed = (fields: Iterable<[string, string]>): OutputShape => ({ fields: new Map(fields), closed: true });

/** The shape of a node's output items, or null when it does not follow from the node. */
export function outputShape(node: ShapedNode, input: OutputShape | null): OutputShape | null {
  if (PASS_THROUGH.has(node.type)) return input;
  switch (node.type) {
    case `${BASE}webhook`:
      return closed([
        ...WEBHOOK_FIELDS,
        ...(value(node, 'authentication') === 'jwtAuth' ? [['jwtPayload', 'the verified JWT payload'] as [string, string]] : []),
      ]);
    case `${BASE}manualTrigger`:
      return closed([]);
    case `${BASE}scheduleTrigger`:
      return closed(
        SCHEDULE_FIELDS.map((f) => [f, f === 'timestamp' ? 'the time of the run, ISO 8601 in the workflow timezone' : 'the time of the run, as text']),
      );
    case `${BASE}formTrigger`:
      return formTriggerShape(node);
    case '@n8n/n8n-nodes-langchain.chatTrigger':
      // The body the chat sends: these fields, and what an embedding page adds (metadata…).
      return {
        fields: new Map([
          ['chatInput', "the user's message"],
          ['sessionId', 'the chat session'],
          ['action', '"sendMessage" or "loadPreviousSession"'],
        ]),
        closed: false,
      };
    case `${BASE}set`:
      return node.typeVersion >= 3 ? editFieldsShape(node, input) : oldSetShape(node, input);
    case `${BASE}summarize`:
      return summarizeShape(node);
    case `${BASE}html`:
      return htmlShape(node);
    default:
      return observedShape(node, input);
  }
}

/**
 * Nodes whose output fields follow from their parameters alone, so one observed run tells them for any
 * data. Not Split Out or XML (a list of objects splits into the objects; XML's fields are the
 * document's), nor Merge and Compare Datasets (the run does not say which input a field came from).
 */
const OBSERVED_SHAPES = new Set(['aggregate', 'crypto', 'dateTime', 'markdown', 'renameKeys'].map((n) => BASE + n));

/**
 * The shape an observed run showed (src/catalog/observed.ts), carried over to this node where its
 * values are the configuration's but for the field names: a name the configuration gave (Aggregate's
 * `destinationFieldName`, Date & Time's `outputFieldName`) that an output field or a sample field bears is
 * the node's own name for it. Only where that is certain: every choice the same, no option the run had
 * not, each name a plain one (no expression, no dotted path, no list), one field set on every output
 * that had items, and the input kept whole, dropped whole, or kept but for fields the configuration names.
 */
function observedShape(node: ShapedNode, input: OutputShape | null): OutputShape | null {
  const { observed, observedSampleFields } = node;
  if (!OBSERVED_SHAPES.has(node.type) || !observed || !observedSampleFields) return null;
  const withItems = observed.outputs.filter((o) => !o.items.startsWith('0 '));
  if (withItems.length === 0) return null;
  const fieldSet = (o: (typeof withItems)[number]) => Object.keys(o.fields).sort().join('\n');
  if (withItems.some((o) => fieldSet(o) !== fieldSet(withItems[0]!))) return null;
  const fields = Object.keys(withItems[0]!.fields);
  const sample = new Set(observedSampleFields);
  const names = carriedNames(observed, node.values, new Set([...fields, ...sample]));
  if (!names) return null;
  const set: [string, string][] = [];
  for (const field of fields) {
    if (names.has(field)) set.push([names.get(field)!, 'set by this node']);
    else if (sample.has(field)) continue;
    // A name made from a configured one (`count_score`): how it is made is not in the run.
    else if ([...names.keys()].some((name) => field.includes(name))) return null;
    else set.push([field, 'set by this node']);
  }
  const keepsInput = fields.some((f) => sample.has(f) && !names.has(f));
  if (!keepsInput) return closed(set);
  const dropped = observedSampleFields.filter((f) => !fields.includes(f));
  if (dropped.some((f) => !names.has(f))) return null;
  const removed = new Set(dropped.map((f) => names.get(f)));
  if (!input) return { fields: new Map(set), closed: false };
  return { fields: new Map([...[...input.fields].filter(([f]) => !removed.has(f)), ...set]), closed: input.closed };
}

/**
 * The names a configuration gave (its plain strings that are field names: `known`) mapped to the
 * node's, or null where the node's values are not the configuration's but for those names. The
 * choices that make the configuration (its label: `operation=formatDate, options.x=true`) and every
 * boolean must be the same; other text and numbers were not varied because they do not change the
 * fields (a hash's algorithm, a date format); an expression the configuration read with takes any
 * value; a value the node leaves out is taken as the configuration's, except a name (n8n saves no
 * parameter at its default); an entry or option the run did not have makes it unknown (the top level
 * has the node's other parameters).
 */
function carriedNames(observed: ObservedBehaviour, values: object, known: Set<string>): Map<string, string> | null {
  const names = new Map<string, string>();
  const chosen = new Set(observed.configuration.split(', ').map((part) => part.split('=')[0]!));
  const same = (c: unknown, v: unknown, path: string): boolean => {
    if (typeof c === 'number') return true;
    if (typeof c === 'string' && c.startsWith('=')) return true;
    if (typeof c === 'string' && known.has(c)) {
      if (typeof v !== 'string' || v === '' || v.startsWith('=') || /[.,[\]]/.test(v)) return false;
      if (names.has(c) && names.get(c) !== v) return false;
      names.set(c, v);
      return true;
    }
    if (v === undefined) return typeof c !== 'object' || c === null || (isPlainObject(c) && Object.keys(c).length === 0);
    if (typeof c === 'string' && !chosen.has(path)) return typeof v === 'string';
    if (Array.isArray(c)) return Array.isArray(v) && v.length === c.length && c.every((entry, i) => same(entry, v[i], `${path}[${i}]`));
    if (isPlainObject(c)) {
      if (!isPlainObject(v)) return false;
      if (path !== '' && Object.keys(v).some((k) => !Object.hasOwn(c, k))) return false;
      return Object.keys(c).every((k) => same(own(c, k), own(v, k), path === '' ? k : `${path}.${k}`));
    }
    return c === v;
  };
  return same(observed.parameters, values, '') ? names : null;
}

/** The top-level field a name sets: with dot notation a path (`a.b`, `a[0]`, `a['b-c']` set `a`). Null when decided at run time. */
function topField(name: unknown, dotNotation: boolean): string | null {
  if (typeof name !== 'string' || name === '' || name.startsWith('=')) return null;
  const top = dotNotation ? name.split(/[.[]/)[0]! : name;
  return top === '' ? null : top;
}

/** Fields named in `entries[].name`, or null when any name is decided at run time. */
function namedFields(entries: unknown[], dotNotation: boolean, what: string): [string, string][] | null {
  const fields: [string, string][] = [];
  for (const entry of entries) {
    const name = topField(isPlainObject(entry) ? own(entry, 'name') : undefined, dotNotation);
    if (name === null) return null;
    fields.push([name, what]);
  }
  return fields;
}

/** Both the input's fields and the ones set: closed when the input's shape is. */
function withInput(input: OutputShape | null, fields: [string, string][]): OutputShape {
  if (!input) return { fields: new Map(fields), closed: false };
  return { fields: new Map([...input.fields, ...fields]), closed: input.closed };
}

/**
 * Edit Fields (Set v3+), manual mode: the fields assigned (`fields.values` before 3.3,
 * `assignments.assignments` from 3.3), and the input's fields when it keeps them: `include` "all"
 * (the default) before 3.3; from 3.3 only when `includeOtherFields` is on. Raw (JSON) mode: unknown.
 */
function editFieldsShape(node: ShapedNode, input: OutputShape | null): OutputShape | null {
  if (value(node, 'mode') !== 'manual') return null;
  const dotNotation = option(node, 'dotNotation') !== false;
  const entries = node.typeVersion >= 3.3 ? list(value(node, 'assignments'), 'assignments') : list(value(node, 'fields'), 'values');
  const fields = namedFields(entries, dotNotation, 'set by this node');
  if (!fields) return null;
  const include = node.typeVersion >= 3.3 && value(node, 'includeOtherFields') !== true ? 'none' : (value(node, 'include') ?? 'all');
  if (include === 'none') return closed(fields);
  if (include === 'selected') {
    const selected = value(node, 'includeFields');
    if (typeof selected !== 'string' || selected.startsWith('=')) return null;
    const kept = selected
      .split(',')
      .map((f) => topField(f.trim(), dotNotation))
      .filter((f): f is string => !!f);
    return closed([...kept.map((f): [string, string] => [f, input?.fields.get(f) ?? 'kept from the input']), ...fields]);
  }
  // "all" and "except" keep (some of) the input's fields: as many as the input has, at most.
  return withInput(input, fields);
}

/** The old Set (v1, v2): `values.{string,number,boolean}[].name`, the input kept unless `keepOnlySet`. */
function oldSetShape(node: ShapedNode, input: OutputShape | null): OutputShape | null {
  const values = value(node, 'values');
  const dotNotation = option(node, 'dotNotation') !== false;
  const fields = namedFields(
    ['string', 'number', 'boolean'].flatMap((t) => list(values, t)),
    dotNotation,
    'set by this node',
  );
  if (!fields) return null;
  return value(node, 'keepOnlySet') === true ? closed(fields) : withInput(input, fields);
}

/**
 * Form Trigger: one field per form field, named by its label (from v2.4 by its `fieldName` when it has
 * one; an HTML field by its element name), and `submittedAt`, `formMode`; `headers` with the option
 * on, `formQueryParameters` when the form's URL had a query. A label set by an expression: unknown.
 */
function formTriggerShape(node: ShapedNode): OutputShape | null {
  const fields: [string, string][] = [];
  for (const field of list(value(node, 'formFields'), 'values')) {
    if (!isPlainObject(field)) return null;
    const html = own(field, 'fieldType') === 'html';
    const name = html
      ? own(field, 'elementName')
      : node.typeVersion >= 2.4 && own(field, 'fieldName')
        ? own(field, 'fieldName')
        : (own(field, 'fieldLabel') ?? own(field, 'fieldName'));
    if (html && name === undefined) continue;
    if (typeof name !== 'string' || name.startsWith('=')) return null;
    fields.push([name, 'the answer to this form field']);
  }
  fields.push(
    ['submittedAt', 'when the form was sent, ISO 8601'],
    ['formMode', '"test" or "production"'],
    ['formQueryParameters', "the form URL's query parameters, when it had any"],
  );
  if (option(node, 'showHeaders') === true) fields.push(['headers', 'the request headers']);
  // A form that asks for sign-in adds the user.
  if (value(node, 'authentication') !== undefined && value(node, 'authentication') !== 'none') fields.push(['user', 'the signed-in user']);
  return closed(fields);
}

/**
 * Summarize, one item per group (the default output format): the fields split by, and one field per
 * aggregation named like `sum_amount`. One item in all ("singleItem"), or dotted split fields: unknown.
 */
function summarizeShape(node: ShapedNode): OutputShape | null {
  if (option(node, 'outputFormat') === 'singleItem') return null;
  const splitBy = value(node, 'fieldsToSplitBy') ?? '';
  if (typeof splitBy !== 'string' || splitBy.startsWith('=')) return null;
  const groups = splitBy
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (groups.some((f) => f.includes('.'))) return null;
  const fields: [string, string][] = groups.map((f) => [f, 'the value this group shares']);
  for (const aggregation of list(value(node, 'fieldsToSummarize'), 'values')) {
    if (!isPlainObject(aggregation)) return null;
    const kind = own(aggregation, 'aggregation') ?? 'count';
    const field = own(aggregation, 'field') ?? '';
    const prefix = typeof kind === 'string' ? own(AGGREGATION_PREFIX, kind) : undefined;
    if (typeof kind !== 'string' || prefix === undefined || typeof field !== 'string' || field.startsWith('=')) return null;
    fields.push([`${prefix}${field}`.replace(/[\]["]/g, '').replace(/[ .]/g, '_'), `the ${kind} of ${field || 'the items'}`]);
  }
  return closed(fields);
}

/**
 * HTML's "Extract HTML Content" (v1.x): a new item per HTML document holding only the extraction
 * values' keys, each the first match's value or, with returnArray, every match's ([] when none).
 */
function htmlShape(node: ShapedNode): OutputShape | null {
  if (value(node, 'operation') !== 'extractHtmlContent') return null;
  const fields: [string, string][] = [];
  for (const extraction of list(value(node, 'extractionValues'), 'values')) {
    const key = isPlainObject(extraction) ? own(extraction, 'key') : undefined;
    if (typeof key !== 'string' || key === '' || key.startsWith('=')) return null;
    const cssSelector = own(extraction as object, 'cssSelector');
    const selector = typeof cssSelector === 'string' ? cssSelector : '';
    fields.push([
      key,
      own(extraction as object, 'returnArray') === true ? `every match of ${selector} as a list ([] when none)` : `the first match of ${selector}`,
    ]);
  }
  return fields.length > 0 ? closed(fields) : null;
}

/** A shape as an answer shows it (get_node_details): field → what it holds, and whether there are others. */
export function shapeAsJson(shape: OutputShape): { fields: Record<string, string>; other_fields: boolean } {
  return { fields: Object.fromEntries(shape.fields), other_fields: !shape.closed };
}

/** A workflow node's shape with no input known (what get_node_details can show): its parameters with n8n's defaults. */
export function nodeOutputShape(spec: NodeSpec, node: { type: string; typeVersion: number; parameters?: unknown }): OutputShape | null {
  return outputShape({ type: node.type, typeVersion: node.typeVersion, values: nodeValues(spec.parameters, node) }, null);
}
