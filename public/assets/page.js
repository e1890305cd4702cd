// The landing page's behaviour (src/page/landing.ts renders the markup): copy buttons, the API key
// the visitor enters, the tools it can use, the n8n it acts on (/api/instances), and the node catalog
// explorer over /api/catalog.
// No framework and no build: DOM calls only, text always set as text (never as HTML). Type-checked
// through its JSDoc (tsconfig.browser.json).
// @ts-check

/**
 * The API's shapes (src/routes/catalogApi.ts; a spec as src/catalog/serialize.ts writes it).
 * @typedef {{ node_type: string, subtype: string, display_name: string, description: string, relevance_score: number }} Hit
 * @typedef {{ name: string, display_name?: string, type: string, required: boolean, default_value?: unknown, description: string,
 *   enum_values?: string[] | null, when?: string, options?: Parameter[] }} Parameter
 * @typedef {{ name: string, type: string, required: boolean, description: string, max_connections: number | null }} Port
 * @typedef {{ name: string, description: string, parameters: Record<string, unknown> }} Example
 * @typedef {{ node_type: string, subtype: string, version: string, display_name: string, description: string, source: string,
 *   categories: string[], aliases: string[], documentation_url: string | null, parameters: Parameter[],
 *   input_ports: Port[], output_ports: Port[], examples?: Example[] }} Spec
 * @typedef {Error & { status?: number }} ApiError
 * The n8n a key acts on (src/page/connectionsApi.ts): never a connection's n8n key.
 * @typedef {{ name: string, url: string | null, release: string | null, testedAt: string | null, default: boolean, configured: boolean }} Instance
 * @typedef {{ workspace: string | null, workspaces: boolean, canManage: boolean, instances: Instance[], tools: string[] }} Instances
 * @typedef {Node | string | null | undefined | false | readonly unknown[]} Child (arrays of children nest)
 */

const KEY_STORAGE = 'n8n-edge-api-key';

/** An element the page's markup always has. */
const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const main = byId('main');
const keyForm = /** @type {HTMLFormElement} */ (byId('key-form'));
const keyInput = /** @type {HTMLInputElement} */ (byId('api-key'));
const keyStatus = byId('key-status');
const forgetKey = byId('forget-key');
const searchForm = /** @type {HTMLFormElement} */ (byId('search-form'));
const queryInput = /** @type {HTMLInputElement} */ (byId('q'));
const typeSelect = /** @type {HTMLSelectElement} */ (byId('node-type'));
const searchStatus = byId('search-status');
const results = byId('results');
const spec = byId('spec');
const n8nStatus = byId('n8n-status');
const n8nList = byId('n8n-list');
const n8nTools = byId('n8n-tools');
/** Only where workspaces are on (CONNECTION_KEYS). */
const n8nForm = /** @type {HTMLFormElement | null} */ (document.getElementById('n8n-form'));
/** Says `text` in the live region; cleared first, so the same words twice are announced twice. */
function announce(/** @type {string} */ text) {
  const region = byId('announce');
  region.textContent = '';
  setTimeout(() => (region.textContent = text), 50);
}

/**
 * An element with attributes (`on…` ones are listeners) and children (strings become text nodes).
 * @param {string} tag
 * @param {Record<string, any>} attrs
 * @param {Child[]} children
 */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(.../** @type {(Node | string)[]} */ (children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)));
  return el;
}

/**
 * n8n's node descriptions carry HTML (links, <code>, entities): shown as plain text. An inert parsed
 * document runs nothing and loads nothing.
 */
const plain = (/** @type {string} */ text) => (/[<&]/.test(text) ? (new DOMParser().parseFromString(text, 'text/html').body.textContent ?? '') : text);

// --- Copy buttons -----------------------------------------------------------------------------------

/** @param {string} text */
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain http on another host (a LAN address) has no Clipboard API: the old way still works there.
  const area = h('textarea', { class: 'vh', 'aria-hidden': 'true' }, text);
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  document.body.append(area);
  /** @type {HTMLTextAreaElement} */ (area).select();
  const ok = document.execCommand('copy');
  area.remove();
  focused?.focus(); // selecting moved focus to the textarea, now gone
  if (!ok) throw new Error('copy refused');
}

/**
 * Shows the button (hidden without script) and copies `textOf()` on click. Its first child is the
 * visible label; the rest names what it copies for screen readers.
 * @param {HTMLElement} button
 * @param {() => string} textOf
 */
function wireCopyButton(button, textOf) {
  button.hidden = false;
  const label = /** @type {ChildNode} */ (button.firstChild);
  const idle = label.textContent;
  button.addEventListener('click', async () => {
    try {
      await copyText(textOf());
      label.textContent = 'Copied';
      announce('Copied to the clipboard');
    } catch {
      label.textContent = 'Select and copy';
      announce('The browser refused to copy: select the text and copy it yourself');
    }
    setTimeout(() => (label.textContent = idle), 2000);
  });
}

for (const button of document.querySelectorAll('button.copy[data-copy]')) {
  const target = /** @type {HTMLElement} */ (button);
  wireCopyButton(target, () => byId(/** @type {string} */ (target.dataset.copy)).textContent ?? '');
}

// --- The visitor's API key --------------------------------------------------------------------------

/** @type {string | null} */
let apiKey = sessionStorage.getItem(KEY_STORAGE);
/** What the key in use may do, once /api/me said so. @type {string[] | null} */
let keyScopes = null;
const publicCatalog = main.dataset.publicCatalog === 'true';

/**
 * GET from this server's API, as JSON; errors carry the status and the server's message. The key goes
 * along, except to the catalog when it is public and the key could not read it.
 * @param {string} path
 * @param {Record<string, string>} params
 * @param {string | null} [key]
 */
async function api(path, params, key = apiKey) {
  const keyForCatalog = !(publicCatalog && keyScopes && !canUse(keyScopes, 'nodes:read'));
  const send = key && (path === '/api/me' || keyForCatalog) ? key : null;
  const response = await fetch(`${path}?${new URLSearchParams(params)}`, { headers: send ? { Authorization: `Bearer ${send}` } : {} });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.error?.message ?? `HTTP ${response.status}`), { status: response.status });
  return body;
}

/** A tool's data-scope lists what it needs, space-separated; a key must have each. */
const canUse = (/** @type {string[]} */ scopes, /** @type {string | undefined} */ needed) =>
  !needed || scopes.includes('*') || needed.split(' ').every((scope) => scopes.includes(scope));

/** Marks each tool the key can or cannot use; `null` removes the marks. */
function markTools(/** @type {string[] | null} */ scopes) {
  const tools = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('details[data-tool]'));
  let usable = 0;
  for (const tool of tools) {
    const badge = /** @type {HTMLElement} */ (tool.querySelector('.access'));
    if (!scopes) {
      badge.hidden = true;
      continue;
    }
    const ok = canUse(scopes, tool.dataset.scope);
    usable += ok ? 1 : 0;
    badge.hidden = false;
    badge.className = `badge access ${ok ? 'yes' : 'no'}`;
    badge.textContent = ok ? 'your key can use it' : 'your key lacks this scope';
  }
  byId('tools-usable').textContent = scopes ? `Your key can use ${usable} of ${tools.length}.` : '';
}

/** @param {string} text @param {boolean} [isError] */
function say(/** @type {HTMLElement} */ where, text, isError = false) {
  where.textContent = text;
  where.classList.toggle('error', isError);
}

/**
 * Checks the key with /api/me and uses it from then on, kept for this tab. A refused key is dropped
 * (the one in use before stays); one that could not be checked (rate limit, network) is kept.
 */
async function useKey(/** @type {string} */ key) {
  try {
    const me = await api('/api/me', {}, key);
    apiKey = key;
    keyScopes = me.scopes;
    sessionStorage.setItem(KEY_STORAGE, key);
    say(keyStatus, `Using your ${me.credential}: scopes ${me.scopes.join(', ')}.`);
    forgetKey.hidden = false;
    markTools(me.scopes);
    void showInstances();
    return true;
  } catch (caught) {
    const error = /** @type {ApiError} */ (caught);
    if (error.status !== 401) {
      say(keyStatus, `Could not check the key just now (${error.message}): try again in a moment.`, true);
      return false;
    }
    if (key === apiKey) forget();
    say(keyStatus, `That key is not valid (unknown, revoked or expired).${apiKey ? ' Still using the previous one.' : ''}`, true);
    return false;
  }
}

function forget() {
  apiKey = null;
  keyScopes = null;
  sessionStorage.removeItem(KEY_STORAGE);
  forgetKey.hidden = true;
  markTools(null);
  resetInstances();
}

keyForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  if (!key) return;
  if (await useKey(key)) {
    keyInput.value = '';
    if (queryInput.value || typeSelect.value) void search();
  }
});

forgetKey.addEventListener('click', () => {
  forget();
  say(keyStatus, 'Key forgotten.');
  keyInput.focus();
});

// --- Your n8n: the instances the key acts on, and adding one ------------------------------------------

/**
 * A call to /api/instances with the key in use, JSON both ways; errors carry the status and the
 * server's message (a failed test's message names the fix).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function instancesApi(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(answer.error?.message ?? `HTTP ${response.status}`), { status: response.status });
  return answer;
}

let instancesSeq = 0;
/** What the list shows now. @type {Instances | null} */
let shown = null;

function resetInstances() {
  instancesSeq++;
  shown = null;
  n8nList.replaceChildren();
  n8nList.hidden = true;
  n8nTools.hidden = true;
  if (n8nForm) n8nForm.hidden = true;
  say(n8nStatus, 'Enter your API key above to see your n8n.');
}

/** Loads what the key acts on. */
async function showInstances() {
  const seq = ++instancesSeq;
  if (!apiKey) return resetInstances();
  say(n8nStatus, 'Loading your n8n…');
  try {
    /** @type {Instances} */
    const body = await instancesApi('GET', '/api/instances');
    if (seq === instancesSeq) renderInstances(body);
  } catch (caught) {
    if (seq !== instancesSeq) return;
    const error = /** @type {ApiError} */ (caught);
    n8nList.hidden = true;
    n8nTools.hidden = true;
    if (n8nForm) n8nForm.hidden = true;
    say(
      n8nStatus,
      error.status === 429 ? 'Too many requests from your key just now: try again in a minute.' : `Could not load your n8n: ${error.message}`,
      true,
    );
  }
}

function renderInstances(/** @type {Instances} */ body) {
  shown = body;
  const count = body.instances.length;
  n8nList.replaceChildren(...body.instances.map((instance) => instanceItem(instance, body.canManage)));
  n8nList.hidden = count === 0;
  if (body.workspace === null) {
    const own = body.instances[0];
    say(
      n8nStatus,
      own?.configured
        ? 'Your key acts on this server’s own n8n, which its operator set; a key of a workspace brings its own.'
        : 'This server has no n8n of its own configured, and your key belongs to no workspace: its n8n tools have no n8n to act on.',
    );
  } else {
    const which = count === 0 ? 'has no n8n connection yet' : `has ${count} n8n connection${count === 1 ? '' : 's'}`;
    const next = count > 0 ? '' : body.canManage ? ': add one below.' : ': a key of it with the instances:write scope can add one.';
    say(n8nStatus, `Your workspace “${body.workspace}” ${which}${next || '.'}`);
  }
  n8nTools.textContent = body.tools.length
    ? `Live for your key: ${body.tools.length} tool${body.tools.length === 1 ? '' : 's'}: ${body.tools.join(', ')}.`
    : 'No tool is live for your key: it has none of the scopes the tools need.';
  n8nTools.hidden = false;
  if (n8nForm) n8nForm.hidden = !body.canManage;
}

function instanceItem(/** @type {Instance} */ instance, /** @type {boolean} */ canManage) {
  const tested = instance.testedAt ? new Date(instance.testedAt).toLocaleString() : null;
  return h(
    'li',
    { 'data-instance': instance.name },
    h('strong', {}, instance.name),
    instance.default ? [' ', h('span', { class: 'badge' }, 'default')] : null,
    ' ',
    instance.url ? h('code', {}, instance.url) : 'not configured',
    instance.release ? ` · n8n ${instance.release}` : null,
    tested ? ` · tested ${tested}` : null,
    canManage
      ? [
          ' ',
          h(
            'button',
            { type: 'button', class: 'secondary small', onclick: () => removeInstance(instance.name) },
            'Remove',
            h('span', { class: 'vh' }, ` the connection ${instance.name}`),
          ),
        ]
      : null,
  );
}

async function removeInstance(/** @type {string} */ name) {
  if (!confirm(`Remove the n8n connection “${name}”? Tool calls naming it stop working.`)) return;
  try {
    await instancesApi('DELETE', `/api/instances/${encodeURIComponent(name)}`);
    await showInstances();
    // A list may lag behind a change by a moment (KV): the removed one is not shown again meanwhile.
    if (shown) renderInstances({ ...shown, instances: shown.instances.filter((i) => i.name !== name) });
    announce(`Removed the connection “${name}”.`);
    n8nList.focus();
  } catch (caught) {
    say(n8nStatus, explainConnection(/** @type {ApiError} */ (caught)), true);
  }
}

/** Why a test, save or removal failed, in words for the visitor. */
function explainConnection(/** @type {ApiError} */ error) {
  if (error.status === 401) return 'Your API key is no longer valid: enter it again above.';
  if (error.status === 429) return 'Too many tests and changes from your key in the last minute: wait a moment and try again.';
  if (error.status === 422) return `It did not work: ${error.message}.`;
  return error.message;
}

if (n8nForm) {
  const form = n8nForm;
  const nameField = /** @type {HTMLInputElement} */ (byId('n8n-name'));
  const urlField = /** @type {HTMLInputElement} */ (byId('n8n-url'));
  const keyField = /** @type {HTMLInputElement} */ (byId('n8n-key'));
  const result = byId('n8n-result');
  const buttons = /** @type {HTMLButtonElement[]} */ ([...form.querySelectorAll('button')]);

  /**
   * Tests (and, to save, then stores) what the form holds. The n8n key stays in its field until it
   * is saved, so a failed try can be fixed and sent again.
   * @param {'test' | 'save'} action
   */
  const run = async (action) => {
    const fields = action === 'test' ? [urlField, keyField] : [nameField, urlField, keyField];
    const invalid = fields.find((field) => !field.checkValidity());
    if (invalid) return invalid.reportValidity();
    for (const button of buttons) button.disabled = true;
    say(result, action === 'test' ? 'Testing the connection…' : 'Testing and saving the connection…');
    const given = { url: urlField.value.trim(), apiKey: keyField.value };
    try {
      if (action === 'test') {
        const body = await instancesApi('POST', '/api/instances/test', given);
        say(result, `The test passed: n8n answers at ${body.url}${body.release ? ` (release ${body.release})` : ''} and takes the key. Save it to use it.`);
        return;
      }
      /** @type {{ saved: Instance }} */
      const body = await instancesApi('POST', '/api/instances', { name: nameField.value.trim(), ...given });
      keyField.value = '';
      say(result, `Saved “${body.saved.name}”${body.saved.release ? ` (n8n ${body.saved.release})` : ''}: your n8n tools can act on it now.`);
      await showInstances();
      // A list may lag behind a change by a moment (KV): the saved one is shown meanwhile.
      if (shown && !shown.instances.some((i) => i.name === body.saved.name))
        renderInstances({ ...shown, instances: [...shown.instances, body.saved].sort((a, b) => a.name.localeCompare(b.name)) });
    } catch (caught) {
      say(result, explainConnection(/** @type {ApiError} */ (caught)), true);
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  };

  byId('n8n-test').addEventListener('click', () => void run('test'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run('save');
  });
}

// --- Node catalog explorer --------------------------------------------------------------------------

let searchSeq = 0;
let openSeq = 0;
/** The node on show, kept in the address while searches go on. @type {{ node_type: string, subtype: string } | null} */
let shownNode = null;
/** The result button a node was opened from, to return focus to. @type {HTMLElement | null} */
let openedFrom = null;

function explain(/** @type {ApiError} */ error) {
  if (error.status === 401) return publicCatalog ? 'That key is not valid.' : 'Enter your API key above to search the node catalog.';
  if (error.status === 403) return 'Your key lacks the nodes:read scope the catalog needs.';
  if (error.status === 429) return 'Too many searches from you in the last minute: wait a moment and try again.';
  return `The search failed: ${error.message}`;
}

/** Keeps the query, type and open node in the address, so a view can be reloaded or shared. */
function remember() {
  const params = new URLSearchParams();
  if (queryInput.value.trim()) params.set('q', queryInput.value.trim());
  if (typeSelect.value) params.set('type', typeSelect.value);
  if (shownNode) params.set('node', `${shownNode.node_type}/${shownNode.subtype}`);
  history.replaceState(null, '', params.size ? `?${params}${location.hash}` : location.pathname + location.hash);
}

async function search() {
  const q = queryInput.value.trim();
  const type = typeSelect.value;
  const seq = ++searchSeq;
  remember();
  if (!q && !type) {
    results.replaceChildren();
    say(searchStatus, '');
    return;
  }
  say(searchStatus, 'Searching…');
  try {
    /** @type {{ results: Hit[] }} */
    const body = await api('/api/catalog/search', { ...(q ? { q, limit: '20' } : {}), ...(type ? { type } : {}) });
    if (seq !== searchSeq) return; // a newer search is on its way
    results.replaceChildren(...body.results.map(resultItem));
    const where = type ? ` among ${type}` : '';
    const found = q ? `${body.results.length} nodes for “${q}”${where}, best first.` : `${body.results.length} nodes of type ${type}, by name.`;
    say(searchStatus, body.results.length === 0 ? `No nodes match${q ? ` “${q}”` : ''}${where}.` : found);
  } catch (caught) {
    if (seq !== searchSeq) return;
    results.replaceChildren();
    say(searchStatus, explain(/** @type {ApiError} */ (caught)), true);
  }
}

function resultItem(/** @type {Hit} */ hit, /** @type {number} */ index) {
  const meta = `${hit.node_type} · ${hit.subtype}${hit.relevance_score ? ` · score ${hit.relevance_score}` : ''}`;
  /** @param {Event} event */
  const open = (event) => openNode(hit, /** @type {HTMLElement} */ (event.currentTarget));
  return h(
    'li',
    {},
    h(
      'button',
      { type: 'button', 'data-node-type': hit.node_type, 'data-subtype': hit.subtype, 'data-rank': index + 1, onclick: open },
      h('span', { class: 'hit-name' }, hit.display_name),
      h('span', { class: 'hit-meta' }, meta),
      h('span', { class: 'hit-desc' }, plain(hit.description)),
    ),
  );
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let debounce;
queryInput.addEventListener('input', () => {
  clearTimeout(debounce);
  debounce = setTimeout(search, 250);
});
typeSelect.addEventListener('change', search);
searchForm.addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(debounce);
  void search();
});

/**
 * @param {{ node_type: string, subtype: string, display_name?: string }} node
 * @param {HTMLElement | null | undefined} from
 */
async function openNode(node, from) {
  const seq = ++openSeq;
  openedFrom = from ?? null;
  for (const b of results.querySelectorAll('button')) b.removeAttribute('aria-current');
  from?.setAttribute('aria-current', 'true');
  spec.hidden = false;
  spec.replaceChildren(h('p', { role: 'status' }, `Loading ${node.display_name ?? node.subtype}…`));
  try {
    /** @type {Spec} */
    const body = await api('/api/catalog/spec', { type: node.node_type, subtype: node.subtype });
    if (seq !== openSeq) return; // another node was opened meanwhile
    spec.replaceChildren(specView(body));
    shownNode = body;
    remember();
  } catch (caught) {
    if (seq !== openSeq) return;
    const error = /** @type {ApiError} */ (caught);
    spec.replaceChildren(h('p', { class: 'error' }, error.status === 404 ? 'This node is not in the catalog.' : explain(error)));
  }
  spec.focus();
}

function specView(/** @type {Spec} */ s) {
  const call = JSON.stringify({ nodes: [{ node_type: s.node_type, subtype: s.subtype }] });
  const copy = h('button', { type: 'button', class: 'copy' }, 'Copy', h('span', { class: 'vh' }, ' the get_node_details call'));
  wireCopyButton(copy, () => call);
  return h(
    'div',
    {},
    h('h3', { id: 'spec-title' }, s.display_name),
    h(
      'p',
      { class: 'hit-meta' },
      h('code', {}, s.node_type),
      ' · ',
      h('code', {}, s.subtype),
      ` · version ${s.version} · from ${s.source === 'n8n' ? 'n8n’s packages' : 'the seed taxonomy'}`,
    ),
    h('p', {}, plain(s.description)),
    s.categories.length ? h('p', {}, `Categories: ${s.categories.join(', ')}`) : null,
    s.aliases.length ? h('p', {}, `Also known as: ${s.aliases.join(', ')}`) : null,
    s.documentation_url && /^https?:\/\//.test(s.documentation_url)
      ? h('p', {}, h('a', { href: s.documentation_url, rel: 'noopener noreferrer', target: '_blank' }, 'Documentation (opens a new tab)'))
      : null,
    h('h4', {}, `Parameters (${s.parameters.length})`),
    s.parameters.length ? h('ul', { class: 'params', id: 'spec-parameters' }, s.parameters.map(parameterItem)) : h('p', {}, 'None.'),
    h('h4', {}, 'Ports'),
    h(
      'ul',
      { class: 'params', id: 'spec-ports' },
      s.input_ports.map((p) => portItem('input', p)),
      s.output_ports.map((p) => portItem('output', p)),
    ),
    s.examples?.length ? [h('h4', {}, `Examples (${s.examples.length})`), s.examples.map(exampleView)] : null,
    h('h4', {}, 'From an MCP client'),
    h('div', { class: 'snippet' }, h('pre', {}, h('code', {}, `get_node_details ${call}`)), copy),
    h('p', {}, h('button', { type: 'button', class: 'secondary', onclick: closeNode }, 'Back to the results')),
  );
}

/** @returns {HTMLElement} */
function parameterItem(/** @type {Parameter} */ p) {
  const choices = p.enum_values?.length
    ? `One of: ${p.enum_values.slice(0, 25).join(', ')}${p.enum_values.length > 25 ? ` (+${p.enum_values.length - 25} more)` : ''}`
    : null;
  return h(
    'li',
    {},
    h('code', { class: 'name' }, p.name),
    ' ',
    h('span', { class: 'type' }, p.type),
    p.required ? [' ', h('span', { class: 'badge' }, 'required')] : null,
    p.default_value !== undefined && p.default_value !== ''
      ? [' ', h('span', { class: 'default' }, 'default ', h('code', {}, JSON.stringify(p.default_value)))]
      : null,
    p.display_name && p.display_name !== p.name ? h('span', { class: 'desc' }, h('br'), p.display_name) : null,
    p.description && p.description !== p.display_name ? h('span', { class: 'desc' }, h('br'), plain(p.description)) : null,
    choices ? h('span', { class: 'desc' }, h('br'), choices) : null,
    p.when ? h('span', { class: 'desc' }, h('br'), `Applies when ${p.when}`) : null,
    p.options?.length ? h('details', {}, h('summary', {}, `${p.options.length} options`), h('ul', {}, p.options.map(parameterItem))) : null,
  );
}

function portItem(/** @type {string} */ direction, /** @type {Port} */ p) {
  const limit = p.max_connections === null ? 'any number of connections' : `up to ${p.max_connections} connection${p.max_connections === 1 ? '' : 's'}`;
  return h(
    'li',
    {},
    `${direction} `,
    h('code', { class: 'name' }, p.name),
    ' ',
    h('span', { class: 'type' }, p.type),
    p.required ? [' ', h('span', { class: 'badge' }, 'required')] : null,
    h('span', { class: 'desc' }, h('br'), [plain(p.description), limit].filter(Boolean).join(' · ')),
  );
}

function exampleView(/** @type {Example} */ e) {
  return h(
    'div',
    {},
    h('h5', {}, e.name),
    e.description ? h('p', {}, plain(e.description)) : null,
    h('pre', {}, h('code', {}, JSON.stringify(e.parameters, null, 2))),
  );
}

function closeNode() {
  openSeq++;
  shownNode = null;
  spec.hidden = true;
  spec.replaceChildren();
  remember();
  (openedFrom?.isConnected ? openedFrom : queryInput).focus();
}

// --- Start: the key kept in this tab, and the view in the address -------------------------------------

const start = new URLSearchParams(location.search);
queryInput.value = start.get('q') ?? '';
typeSelect.value = start.get('type') ?? '';
if (apiKey) await useKey(apiKey);
if (queryInput.value || typeSelect.value) await search();
const node = start.get('node')?.match(/^([A-Z_]+)\/(.+)$/);
if (node) {
  const [, nodeType, subtype] = /** @type {[string, string, string]} */ (/** @type {unknown} */ (node));
  const buttons = /** @type {HTMLElement[]} */ ([...results.querySelectorAll('button')]);
  await openNode(
    { node_type: nodeType, subtype },
    buttons.find((b) => b.dataset.nodeType === nodeType && b.dataset.subtype === subtype),
  );
}

export {};
