import { describe, expect, it } from 'vitest';
import type { ObservedFile } from '../../scripts/catalog/observe/observe';
import { behaviourOf, matchingBehaviour, type ObservedSample } from '../../src/catalog/observed';
import { nodeOutputShape, outputShape, shapeAsJson, type OutputShape } from '../../src/workflows/outputShapes';
import observedFile from '../../specs/observed/behaviour.json';
import { n8nCatalog, node } from '../support/n8nCatalog';

/** A node's shape as get_node_details would show it, from its parameters and n8n's defaults. */
function shapeOf(type: string, typeVersion: number, parameters: Record<string, unknown> = {}) {
  const n = node('N', type, typeVersion, parameters);
  const shape = nodeOutputShape(n8nCatalog.describe(n.type, typeVersion)!, n);
  return shape && shapeAsJson(shape);
}
const fieldsOf = (type: string, typeVersion: number, parameters: Record<string, unknown> = {}) =>
  Object.keys(shapeOf(type, typeVersion, parameters)?.fields ?? {});

describe('output shapes', () => {
  it("gives the Webhook's item as n8n's source writes it, in every version, and the JWT payload with JWT auth", () => {
    for (const version of [1, 2, 2.1]) {
      expect(shapeOf('webhook', version)).toEqual({
        fields: expect.objectContaining({ body: expect.stringContaining('request body') }),
        other_fields: false,
      });
      expect(fieldsOf('webhook', version)).toEqual(['headers', 'params', 'query', 'body', 'webhookUrl', 'executionMode']);
    }
    expect(fieldsOf('webhook', 2.1, { authentication: 'jwtAuth' })).toContain('jwtPayload');
  });

  it('gives the triggers whose items follow from them: manual (none), schedule, form (by label, by fieldName from 2.4), chat (open)', () => {
    expect(shapeOf('manualTrigger', 1)).toEqual({ fields: {}, other_fields: false });
    expect(fieldsOf('scheduleTrigger', 1.2)).toEqual([
      'timestamp',
      'Readable date',
      'Readable time',
      'Day of week',
      'Year',
      'Month',
      'Day of month',
      'Hour',
      'Minute',
      'Second',
      'Timezone',
    ]);
    const formFields = { values: [{ fieldLabel: 'Your e-mail', fieldName: 'email' }, { fieldLabel: 'Name' }, { fieldType: 'html', elementName: 'intro' }] };
    expect(fieldsOf('formTrigger', 2.2, { formFields })).toEqual(['Your e-mail', 'Name', 'intro', 'submittedAt', 'formMode', 'formQueryParameters']);
    expect(fieldsOf('formTrigger', 2.4, { formFields }).slice(0, 2)).toEqual(['email', 'Name']);
    expect(shapeOf('formTrigger', 2.4, { formFields: { values: [{ fieldLabel: '={{ $vars.label }}' }] } })).toBeNull();
    expect(shapeOf('@n8n/n8n-nodes-langchain.chatTrigger', 1.1)).toEqual({
      fields: expect.objectContaining({ chatInput: expect.any(String), sessionId: expect.any(String) }),
      other_fields: true,
    });
  });

  it('gives Edit Fields the fields it assigns, and keeps the input as each version decides', () => {
    const webhook: OutputShape = { fields: new Map([['body', 'the body']]), closed: true };
    const set = (typeVersion: number, parameters: Record<string, unknown>) => {
      const shape = outputShape({ type: 'n8n-nodes-base.set', typeVersion, values: { mode: 'manual', ...parameters } }, webhook);
      return shape && [[...shape.fields.keys()], shape.closed];
    };
    const assignments = {
      assignments: [
        { name: 'email', value: 'a', type: 'string' },
        { name: 'address.city', value: 'b', type: 'string' },
        { name: "meta['id']", value: 'c', type: 'string' },
      ],
    };
    // From 3.3 only the assigned fields, unless includeOtherFields.
    expect(set(3.4, { assignments })).toEqual([['email', 'address', 'meta'], true]);
    expect(set(3.4, { assignments, includeOtherFields: true, include: 'all' })).toEqual([['body', 'email', 'address', 'meta'], true]);
    expect(set(3.4, { assignments, includeOtherFields: true, include: 'selected', includeFields: 'body' })).toEqual([
      ['body', 'email', 'address', 'meta'],
      true,
    ]);
    expect(set(3.4, { assignments, options: { dotNotation: false } })).toEqual([['email', 'address.city', "meta['id']"], true]);
    // Before 3.3 "include" defaults to all: the input's fields stay.
    expect(set(3.2, { include: 'all', fields: { values: [{ name: 'email', stringValue: 'a' }] } })).toEqual([['body', 'email'], true]);
    // The old Set keeps the input unless keepOnlySet.
    expect(outputShape({ type: 'n8n-nodes-base.set', typeVersion: 2, values: { values: { string: [{ name: 'x' }] } } }, null)).toEqual({
      fields: new Map([['x', 'set by this node']]),
      closed: false,
    });
    expect(outputShape({ type: 'n8n-nodes-base.set', typeVersion: 2, values: { keepOnlySet: true, values: { number: [{ name: 'n' }] } } }, null)!.closed).toBe(
      true,
    );
    // A name decided at run time, or raw JSON: unknown.
    expect(set(3.4, { assignments: { assignments: [{ name: '={{ $json.key }}', value: 'a', type: 'string' }] } })).toBeNull();
    expect(set(3.4, { mode: 'raw', jsonOutput: '{}' })).toBeNull();
  });

  it("gives HTML's extraction items only their keys (the input's fields are not kept); nothing for a key n8n computes", () => {
    const html = (values: unknown[], operation = 'extractHtmlContent') =>
      outputShape({ type: 'n8n-nodes-base.html', typeVersion: 1.2, values: { operation, extractionValues: { values } } }, null);
    const shape = html([
      { key: 'title', cssSelector: 'title' },
      { key: 'links', cssSelector: 'a', returnArray: true },
    ])!;
    expect([...shape.fields.keys()]).toEqual(['title', 'links']);
    expect(shape.closed).toBe(true);
    expect(shape.fields.get('links')).toContain('[] when none');
    expect(html([{ key: '={{ $json.name }}', cssSelector: 'h1' }])).toBeNull();
    expect(html([{ key: 'title', cssSelector: 'title' }], 'generateHtmlTemplate')).toBeNull();
    // A selector that is no string (an object whose toString is no function) is shown as none, not thrown on.
    expect(html([{ key: 'title', cssSelector: { toString: { x: 0 } } }])!.fields.get('title')).toBe('the first match of ');
  });

  it("names Summarize's fields as n8n does (sum_amount), and passes shapes through IF, Filter, Switch; nothing for Code", () => {
    expect(
      fieldsOf('summarize', 1.1, {
        fieldsToSplitBy: 'customer, region',
        fieldsToSummarize: { values: [{ aggregation: 'sum', field: 'amount' }, { field: 'order id' }] },
      }),
    ).toEqual(['customer', 'region', 'sum_amount', 'count_order_id']);
    expect(shapeOf('summarize', 1.1, { options: { outputFormat: 'singleItem' } })).toBeNull();
    const input: OutputShape = { fields: new Map([['a', 'x']]), closed: true };
    for (const type of ['if', 'filter', 'switch']) expect(outputShape({ type: `n8n-nodes-base.${type}`, typeVersion: 2, values: {} }, input)).toBe(input);
    expect(shapeOf('code', 2, { jsCode: 'return [{ json: { a: 1 } }]' })).toBeNull();
  });

  describe('from the runs observed on a real n8n', () => {
    const file = observedFile as unknown as ObservedFile;
    const sample = file.sample as ObservedSample;
    const sampleFields = [...new Set(sample.input1.flatMap((item) => Object.keys(item)))];
    /** The node as validation shapes it: its values, and the observed configuration nearest them. */
    const observedShape = (key: string, values: Record<string, unknown>, input: OutputShape | null) => {
      const [type, typeVersion] = key.split('@') as [string, string];
      const behaviours = file.nodes[`n8n-nodes-base.${key}`]!.configurations.map((c) => behaviourOf(c, sample));
      const shaped = {
        type: `n8n-nodes-base.${type}`,
        typeVersion: Number(typeVersion),
        values,
        observed: matchingBehaviour(behaviours, values),
        observedSampleFields: sampleFields,
      };
      const shape = outputShape(shaped, input);
      return shape && { fields: [...shape.fields.keys()], closed: shape.closed };
    };
    const request: OutputShape = {
      fields: new Map([
        ['first_name', ''],
        ['last_name', ''],
        ['e_mail', ''],
      ]),
      closed: true,
    };

    it("carries the configuration's field names to the node's: Date & Time drops the input unless includeInputFields, Aggregate names its field", () => {
      const format = { operation: 'formatDate', date: '={{ $json.at }}', format: 'custom', customFormat: 'yyyy-MM-dd', outputFieldName: 'day', options: {} };
      expect(observedShape('dateTime@2', format, request)).toEqual({ fields: ['day'], closed: true });
      expect(observedShape('dateTime@2', { ...format, options: { includeInputFields: true } }, request)).toEqual({
        fields: ['first_name', 'last_name', 'e_mail', 'day'],
        closed: true,
      });
      const aggregate = (entries: unknown[]) => ({ aggregate: 'aggregateIndividualFields', fieldsToAggregate: { fieldToAggregate: entries }, options: {} });
      expect(observedShape('aggregate@1', aggregate([{ fieldToAggregate: 'e_mail' }]), request)).toEqual({ fields: ['e_mail'], closed: true });
      expect(
        observedShape('aggregate@1', { aggregate: 'aggregateAllItemData', destinationFieldName: 'rows', include: 'allFields', options: {} }, request),
      ).toEqual({
        fields: ['rows'],
        closed: true,
      });
    });

    it('keeps the input but for the field a node renames (Rename Keys), and is open where the input is unknown', () => {
      const rename = { keys: { key: [{ currentKey: 'first_name', newKey: 'firstName' }] }, additionalOptions: {} };
      expect(observedShape('renameKeys@1', rename, request)).toEqual({ fields: ['last_name', 'e_mail', 'firstName'], closed: true });
      expect(observedShape('renameKeys@1', rename, null)).toEqual({ fields: ['firstName'], closed: false });
    });

    it('says nothing where the run does not tell: more entries or options than it had, a name by expression or dotted path, nodes whose fields are the data', () => {
      const rename = (key: unknown[]) => ({ keys: { key }, additionalOptions: {} });
      const twice = rename([
        { currentKey: 'first_name', newKey: 'firstName' },
        { currentKey: 'last_name', newKey: 'lastName' },
      ]);
      expect(observedShape('renameKeys@1', twice, request)).toBeNull();
      const format = { operation: 'formatDate', date: '={{ $json.at }}', format: 'custom', options: {} };
      expect(observedShape('dateTime@2', { ...format, outputFieldName: '={{ $json.name }}' }, request)).toBeNull();
      expect(observedShape('dateTime@2', { ...format, outputFieldName: 'when.day' }, request)).toBeNull();
      expect(observedShape('dateTime@2', { ...format, outputFieldName: 'day', options: { timezone: 'Europe/Berlin' } }, request)).toBeNull();
      // A list of objects splits into the objects: the sample's list of strings does not tell their fields.
      expect(observedShape('splitOut@1', { fieldToSplitOut: 'records', include: 'noOtherFields', options: {} }, request)).toBeNull();
    });
  });
});
