import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../src/catalog/search/buildIndex';
import type { NodeSpec } from '../../../src/catalog/nodeSpec';
import { Searcher } from '../../../src/catalog/search/search';
import { seedSpecs, spec } from '../../support/catalog';
import { fixtureTable } from '../../support/wordTable';

describe('search over the seed taxonomy', () => {
  const searcher = new Searcher(buildSearchIndex(seedSpecs()));
  const top = (query: string, n = 3) => searcher.search(query, n).map((h) => h.subtype);

  it('ranks the node an expert would pick first', () => {
    expect(top('http request')[0]).toBe('HTTP_REQUEST');
    expect(top('run a cron schedule')[0]).toBe('TRIGGER_CRON');
    expect(top('branch on a condition')[0]).toBe('IF');
    expect(top('semantic search over embeddings')).toContain('MEMORY_VECTOR_STORE');
  });

  it('tolerates typos and expands aliases', () => {
    expect(top('webhok', 2).sort()).toEqual(['EXTERNAL_WEBHOOK', 'TRIGGER_WEBHOOK']);
    expect(top('gmial approval')[0]).toBe('HUMAN_GMAIL');
    expect(top('cURL')[0]).toBe('HTTP_REQUEST');
    expect(top('chatgpt')[0]).toBe('OPENAI_NODE');
  });

  it('prefers triggers only when the query asks what starts a workflow', () => {
    expect(top('new email received')[0]).toBe('TRIGGER_EMAIL');
    expect(top('send email')[0]).not.toBe('TRIGGER_EMAIL');
  });

  it('returns scores in descending order, at most max results, nothing for noise', () => {
    const hits = searcher.search('send a message', 5);
    expect(hits.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.relevance_score).toBeGreaterThanOrEqual(hits[i]!.relevance_score);
    expect(searcher.search('zzqxv', 10)).toEqual([]);
    expect(searcher.search('the of and', 10)).toEqual([]);
  });

  it("reads Object.prototype's names as words like any other, not as the index's own keys", () => {
    for (const word of ['constructor', '__proto__', 'prototype', '__defineGetter__']) {
      expect(searcher.search(word, 5)).toEqual([]);
      expect(top(`http request ${word}`)[0]).toBe('HTTP_REQUEST');
    }
    // Split at the capital as any camel-cased word is.
    expect(top('toString', 5)).toEqual(top('to string', 5));
    expect(top('valueOf', 5)).toEqual(top('value of', 5));
  });
});

/** Nodes shaped like n8n's, each rule below shown on the pair it decides between. */
const n8n = (name: string, display_name: string, overrides: Partial<NodeSpec> = {}) =>
  spec(`n8n-nodes-base.${name}`, { display_name, source: 'n8n', description: `Consume the ${display_name} API`, ...overrides });
const trigger = (name: string, display_name: string, overrides: Partial<NodeSpec> = {}) =>
  n8n(name, display_name, { node_type: 'TRIGGER_NODE', description: `Starts the workflow on ${display_name.replace(' Trigger', '')} events`, ...overrides });
const choices = (name: string, values: string[]) => ({ name, type: 'enum' as const, required: false, description: name, enum_values: values });

const catalog: NodeSpec[] = [
  n8n('slack', 'Slack', { actions: ['Send a message', 'Create a channel'], parameters: [choices('resource', ['message', 'channel'])] }),
  trigger('slackTrigger', 'Slack Trigger', { parameters: [choices('trigger', ['message', 'channel_created'])] }),
  n8n('shopify', 'Shopify', { actions: ['Create an order', 'Get an order'] }),
  trigger('shopifyTrigger', 'Shopify Trigger', { parameters: [choices('topic', ['orders/create', 'orders/paid'])] }),
  n8n('microsoftExcel', 'Microsoft Excel 365', { description: 'Consume Microsoft Excel API: workbooks stored in OneDrive' }),
  n8n('microsoftOneDrive', 'Microsoft OneDrive', { description: 'Consume Microsoft OneDrive API' }),
  n8n('googleDrive', 'Google Drive', { description: 'Access files on Google Drive one at a time or all in one go' }),
  n8n('oneSimpleApi', 'One Simple API', { description: 'A toolbox of no-code utilities' }),
  n8n('microsoftSql', 'Microsoft SQL', { description: 'Get, add and update data in Microsoft SQL' }),
  n8n('mySql', 'MySQL', { description: 'Get, add and update data in MySQL' }),
  n8n('openAi', 'OpenAI', {
    description: 'Message an assistant',
    parameters: [{ name: 'modelId', type: 'string', required: false, description: 'Model', default_value: { mode: 'list', value: 'gpt-4o-mini' } }],
  }),
  n8n('anthropic', 'Anthropic', {
    description: 'Message an assistant',
    parameters: [{ name: 'model', type: 'string', required: false, description: 'Model', default_value: 'claude-sonnet-4-5' }],
  }),
  n8n('googleSheets', 'Google Sheets', { description: 'Read, update and write data to Google Sheets' }),
  n8n('googleCloudStorage', 'Google Cloud Storage', { description: 'Use the Google Cloud Storage API' }),
  n8n('postgres', 'Postgres', { description: 'Get, add and update data in Postgres' }),
  n8n('hubspot', 'HubSpot', { description: 'Consume HubSpot API' }),
  n8n('compression', 'Compression', {
    description: 'Compress and decompress files',
    actions: ['Compress file(s)', 'Decompress file(s)'],
    parameters: [choices('outputFormat', ['zip', 'gzip'])],
  }),
  n8n('code', 'Code', { description: 'Run custom JavaScript or Python code' }),
  n8n('function', 'Function', { description: 'Run custom JavaScript code', hidden: true }),
  spec('@n8n/n8n-nodes-langchain.toolCode', {
    node_type: 'TOOL_NODE',
    display_name: 'Code Tool',
    source: 'n8n',
    description: 'Write a tool in JavaScript or Python code',
  }),
  n8n('crypto', 'Crypto', { description: 'Provide cryptographic utilities' }),
  n8n('mailgun', 'Mailgun', { description: 'Send an email with Mailgun' }),
  n8n('mailjet', 'Mailjet', { description: 'Send an email with Mailjet' }),
  n8n('totp', 'TOTP', { description: 'Time-based one-time codes', aliases: ['2FA', 'MFA', 'Auth'] }),
  n8n('okta', 'Okta', { description: 'Manage Okta users, their MFA factors and MFA enrollment', aliases: ['Auth'] }),
];

describe('search over n8n-shaped nodes', () => {
  const searcher = new Searcher(buildSearchIndex(catalog));
  const top = (query: string, s = searcher) => s.search(query, 10).map((h) => h.subtype.replace(/^.*\./, ''));

  it('puts the node the query names above nodes that only share its words', () => {
    expect(top('onedrive')[0]).toBe('microsoftOneDrive');
    expect(top('one drive')[0]).toBe('microsoftOneDrive');
    // Written apart, "one drive" is OneDrive, however much more Google Drive is used.
    const drives = new Searcher(buildSearchIndex(catalog, { counts: { 'n8n-nodes-base.googleDrive': 500, 'n8n-nodes-base.microsoftOneDrive': 1 }, names: {} }));
    expect(top('one drive', drives)[0]).toBe('microsoftOneDrive');
    expect(top('excel 365')[0]).toBe('microsoftExcel');
  });

  it("takes an alias n8n gives one node as that node's name, and one it gives several as a word", () => {
    expect(top('mfa')[0]).toBe('totp');
    const index = buildSearchIndex(catalog);
    const aliases = (name: string) => index.names[index.docs.findIndex(([, subtype]) => subtype.endsWith(`.${name}`))]![2];
    expect(aliases('totp')).toEqual([['2fa', 'fa'], ['mfa']]);
    expect(aliases('okta')).toEqual([]);
  });

  it('finds a node by the short forms of its name', () => {
    expect(top('mssql')[0]).toBe('microsoftSql');
    expect(top('gsheets')[0]).toBe('googleSheets');
    expect(top('gcs bucket')[0]).toBe('googleCloudStorage');
    expect(top('msft sql')[0]).toBe('microsoftSql');
  });

  it('finds an AI node by the model it defaults to', () => {
    expect(top('gpt-4o')[0]).toBe('openAi');
    expect(top('claude sonnet')[0]).toBe('anthropic');
  });

  it('finds a node through a typo, a cut-short name, or an undoing prefix', () => {
    expect(top('postgress')[0]).toBe('postgres');
    expect(top('hubsp')[0]).toBe('hubspot');
    expect(top('unzip an archive')[0]).toBe('compression');
  });

  it('lets the intent decide between a node and its trigger', () => {
    expect(top('slack message')[0]).toBe('slack');
    expect(top('send a slack message')[0]).toBe('slack');
    expect(top('when a message is posted in slack')[0]).toBe('slackTrigger');
    expect(top('shopify order created')[0]).toBe('shopifyTrigger');
    expect(top('on new shopify order')[0]).toBe('shopifyTrigger');
    expect(top('on slack message')[0]).toBe('slackTrigger');
    expect(top('post a message on slack')[0]).toBe('slack');
    expect(top('create a shopify order')[0]).toBe('shopify');
  });

  it('ranks nodes n8n hides below what replaced them, and agent tools below steps unless asked for', () => {
    const code = top('run javascript code');
    expect(code[0]).toBe('code');
    expect(code).toContain('function');
    expect(code).toContain('toolCode');
    expect(top('code tool for an agent')[0]).toBe('toolCode');
    // The tool n8n names after a step ("Code Tool") ranks below it unless tools are asked for.
    expect(top('write python code').slice(0, 2)).toEqual(['code', 'toolCode']);
    // Hidden, the Function node keeps half the relevance it would have.
    const shown = new Searcher(buildSearchIndex(catalog.map((s) => ({ ...s, hidden: undefined }))));
    const score = (s: Searcher) => s.search('run javascript code', 10).find((h) => h.subtype.endsWith('.function'))!.relevance_score;
    expect(score(searcher)).toBeCloseTo(score(shown) / 2, 1);
  });

  it('breaks near-ties by how much real workflows use a node', () => {
    expect(top('send an email').slice(0, 2)).toEqual(['mailgun', 'mailjet']);
    const used = new Searcher(buildSearchIndex(catalog, { counts: { 'n8n-nodes-base.mailjet': 40, 'n8n-nodes-base.mailgun': 1 }, names: {} }));
    expect(top('send an email', used).slice(0, 2)).toEqual(['mailjet', 'mailgun']);
  });

  it('takes no evidence from what the query says it does without', () => {
    expect(top('store rows in postgres')[0]).toBe('postgres');
    expect(top('store rows in google sheets without postgres')[0]).toBe('googleSheets');
    expect(top('store rows in google sheets without postgres')).not.toContain('postgres');
    expect(top('use google sheets instead of postgres')).not.toContain('postgres');
    // A query that is all exclusion is searched as written rather than not at all.
    expect(top('without postgres')[0]).toBe('postgres');
  });

  it('finds the node builders mostly mean by a word that many descriptions use', () => {
    const withHttp = [...catalog, n8n('httpRequest', 'HTTP Request', { description: 'Makes an HTTP request and returns the response data' })];
    const rival = (names: Record<string, Record<string, number>>) =>
      new Searcher(buildSearchIndex(withHttp, { counts: {}, names })).search('get data from an api', 10).map((h) => h.subtype.replace(/^.*\./, ''))[0];
    // "api" is in every "Consume the … API": alone it names no node.
    expect(rival({})).not.toBe('httpRequest');
    expect(rival({ 'n8n-nodes-base.httpRequest': { 'Call API': 6, 'Query the API': 2 }, 'n8n-nodes-base.hubspot': { 'Get contact': 3 } })).toBe('httpRequest');
  });

  it('finds a node by what builders name it in real workflows', () => {
    expect(top('generate a uuid')[0]).not.toBe('crypto');
    const names = { 'n8n-nodes-base.crypto': { 'Generate UUID': 3, Crypto: 40 } };
    expect(top('generate a uuid', new Searcher(buildSearchIndex(catalog, { counts: {}, names })))[0]).toBe('crypto');
  });

  it("counts the names of the node's tool variant with its own", () => {
    const hashing = (names: Record<string, Record<string, number>>) =>
      new Searcher(buildSearchIndex(catalog, { counts: {}, names })).search('hash a password', 10).map((h) => h.subtype.replace(/^.*\./, ''))[0];
    expect(hashing({})).not.toBe('crypto');
    expect(hashing({ 'n8n-nodes-base.cryptoTool': { 'Hash password': 4 } })).toBe('crypto');
  });
});

describe('search within one node type, and browsing a type', () => {
  const searcher = new Searcher(buildSearchIndex(seedSpecs()));

  it('keeps the unfiltered ranking, restricted to the type', () => {
    const all = searcher.search('send a message', 100);
    const actions = searcher.search('send a message', 100, 'EXTERNAL_ACTION_NODE');
    expect(actions.length).toBeGreaterThan(1);
    expect(actions.length).toBeLessThan(all.length);
    expect(actions).toEqual(all.filter((h) => h.node_type === 'EXTERNAL_ACTION_NODE'));
    expect(searcher.search('send a message', 2, 'EXTERNAL_ACTION_NODE')).toEqual(actions.slice(0, 2));
  });

  it('lists every node of a type by name', () => {
    const specs = seedSpecs().filter((s) => s.node_type === 'TRIGGER_NODE');
    const listed = searcher.ofType('TRIGGER_NODE');
    expect(listed.map((h) => h.subtype).sort()).toEqual(specs.map((s) => s.subtype).sort());
    const names = listed.map((h) => h.display_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(searcher.ofType('NO_SUCH_TYPE')).toEqual([]);
  });
});

describe('search with the semantic layer', () => {
  const nodes = [
    n8n('billbee', 'Billbee', { description: 'Manage orders of an online shop' }),
    n8n('invoiceNinja', 'Invoice Ninja', { description: 'Create invoices and record payments' }),
    n8n('spotify', 'Spotify', { description: 'Play music and manage a playlist' }),
    n8n('openWeatherMap', 'OpenWeatherMap', { description: 'Get the weather forecast' }),
  ];
  const searcher = new Searcher(buildSearchIndex(nodes, undefined, fixtureTable()));
  const top = (query: string) => searcher.search(query, 10).map((h) => h.subtype.replace(/^.*\./, ''));

  it('finds a node by meaning when no word of the query is in any node', () => {
    expect(new Searcher(buildSearchIndex(nodes)).search('a song', 10)).toEqual([]);
    expect(top('a song')[0]).toBe('spotify');
    expect(top('will it rain')[0]).toBe('openWeatherMap');
  });

  it('asks meaning only of a query its words leave uncovered, and then adds it to what the words match', () => {
    // "bill" begins Billbee's name: the words cover the query, so the money-minded Invoice Ninja stays out.
    expect(top('billbee')).toEqual(['billbee']);
    expect(top('bill')).toEqual(['billbee']);
    // "manage" is in two descriptions and "songs" in none: the words alone leave a tie, meaning breaks it.
    expect(new Searcher(buildSearchIndex(nodes)).search('manage songs', 10)[0]!.subtype).toBe('n8n-nodes-base.billbee');
    expect(top('manage songs')[0]).toBe('spotify');
    expect(top('manage songs')).toEqual(expect.arrayContaining(['spotify', 'billbee']));
  });
});

describe('community nodes', () => {
  const community = (subtype: string, display_name: string, description: string, pkg: string) =>
    spec(subtype, {
      display_name,
      description,
      source: 'n8n',
      community: { package: pkg, version: '1.0.0', verified: true, install: `npm install ${pkg}` },
    });
  const core = [
    n8n('crypto', 'Crypto', {
      description: 'Provide cryptographic utilities',
      actions: ['Hash a value', 'Hmac a value', 'Sign a value', 'Generate a random string'],
    }),
    n8n('httpRequest', 'HTTP Request', { description: 'Makes an HTTP request and returns the response data' }),
  ];
  const hashers = [
    community('n8n-nodes-hashkit.hashKit', 'HashKit', 'Hash text with SHA-256, MD5 and other hash functions', 'n8n-nodes-hashkit'),
    community('@acme/n8n-nodes-digest.digest', 'Digest Hash', 'Hash a string or a file', '@acme/n8n-nodes-digest'),
  ];
  const top = (specs: NodeSpec[], query: string) => new Searcher(buildSearchIndex(specs)).search(query, 10).map((h) => h.subtype.replace(/^.*\./, ''));

  it("ranks n8n's own node for the job above community nodes the query does not name", () => {
    const unmarked = hashers.map(({ community: _, ...s }) => s);
    // Unmarked, the hashers say "hash" louder than Crypto does…
    expect(top([...core, ...unmarked], 'hash a string')[0]).not.toBe('crypto');
    // …marked as community nodes, they follow it, in their own order.
    expect(top([...core, ...hashers], 'hash a string')).toEqual(['crypto', ...top(unmarked, 'hash a string')]);
    const cryptoHash = top([...core, ...hashers], 'crypto hash');
    expect(cryptoHash[0]).toBe('crypto');
    expect(cryptoHash.slice(1, 3).sort()).toEqual(['digest', 'hashKit']);
  });

  it('ranks a community node first when the query names it by its name or package', () => {
    expect(top([...core, ...hashers], 'hashkit sha256')[0]).toBe('hashKit');
    expect(top([...core, ...hashers], 'acme digest hash')[0]).toBe('digest');
  });

  it('leaves a community node first when no node of n8n covers the query as well', () => {
    const speech = community('n8n-nodes-voicebox.voicebox', 'Voicebox', 'Turn text into spoken audio', 'n8n-nodes-voicebox');
    expect(top([...core, speech], 'text to spoken audio')[0]).toBe('voicebox');
  });
});
