/**
 * The items `npm run catalog:observe` feeds a node, in each of its scenarios. The sample holds one
 * field of each kind a node may read (text, number, list, date, markup), two items equal on `group`,
 * two tied on `score` (so de-duplication and sorting show which item stays and whether ties keep their
 * order), and an `id` per item (so the output says which input items it holds, and in which order).
 * A configuration's empty slots read the field of the kind its node works on (FIELD_OF).
 */

export interface SampleItem {
  id: number;
  [field: string]: unknown;
}

export const RENAMED_FIELD = 'renamed';
/** A field to keep beside, or leave out of, the one a node works on. */
export const OTHER_FIELD = 'name';

const markup = (title: string) => `<catalog><book id="b1"><title>${title}</title></book></catalog>`;

/** Input 1 in the `items` scenario. */
export const SAMPLE_ITEMS: SampleItem[] = [
  { id: 1, name: 'Ann', group: 'a', score: 3, tags: ['x', 'y'], when: '2024-01-30T10:15:00.000Z', xml: markup('Dune'), html: '<h2>Ann</h2><a href="/a">A</a>' },
  { id: 2, name: 'Bob', group: 'b', score: 1, tags: [], when: '2024-03-01T00:00:00.000Z', xml: markup('Emma'), html: '<h2>Bob</h2>' },
  { id: 3, name: 'Cy', group: 'a', score: 3, tags: ['z'], when: '2023-12-31T23:59:59.000Z', xml: markup('Ulysses'), html: '<p>Cy</p>' },
];

/** The fields a sample item has: a slot that already names one keeps it. */
export const SAMPLE_FIELDS: ReadonlySet<string> = new Set(SAMPLE_ITEMS.flatMap((item) => Object.keys(item)));

/** Input 2 of a two-input node: id 1 again with other values, and an id input 1 does not have. */
export const SECOND_INPUT: SampleItem[] = [
  { id: 1, name: 'Ann', group: 'a', score: 5 },
  { id: 4, name: 'Dee', group: 'c', score: 2 },
];

/** The `missing` scenario: items without any field a configuration reads. */
export const ITEMS_WITHOUT_FIELDS: SampleItem[] = [
  { id: 1, other: 'x' },
  { id: 2, other: 'y' },
];

export type Scenario = 'items' | 'missing' | 'empty' | 'firstEmpty' | 'secondEmpty';

/** What each scenario feeds input 1 and (for two-input nodes) input 2. */
export const SCENARIOS: Record<Scenario, { input1: SampleItem[]; input2: SampleItem[]; twoInputsOnly?: true }> = {
  items: { input1: SAMPLE_ITEMS, input2: SECOND_INPUT },
  missing: { input1: ITEMS_WITHOUT_FIELDS, input2: ITEMS_WITHOUT_FIELDS },
  empty: { input1: [], input2: [] },
  firstEmpty: { input1: [], input2: SECOND_INPUT, twoInputsOnly: true },
  secondEmpty: { input1: SAMPLE_ITEMS, input2: [], twoInputsOnly: true },
};

/**
 * The sample field a node's field slots name, by what the node works on: a list to split or
 * aggregate, a number to sort, sum or match on, a date, markup to parse; a name otherwise.
 */
const FIELD_OF: Record<string, string> = {
  'n8n-nodes-base.splitOut': 'tags',
  'n8n-nodes-base.aggregate': 'name',
  'n8n-nodes-base.itemLists': 'tags',
  'n8n-nodes-base.summarize': 'score',
  'n8n-nodes-base.sort': 'score',
  'n8n-nodes-base.merge': 'id',
  'n8n-nodes-base.compareDatasets': 'id',
  'n8n-nodes-base.removeDuplicates': 'group',
  'n8n-nodes-base.dateTime': 'when',
  'n8n-nodes-base.xml': 'xml',
  'n8n-nodes-base.html': 'html',
  'n8n-nodes-base.htmlExtract': 'html',
  'n8n-nodes-base.markdown': 'html',
};

export const fieldFor = (nodeType: string): string => FIELD_OF[nodeType] ?? 'name';
