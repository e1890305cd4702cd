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
      return null;
  }
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
