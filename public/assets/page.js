// The landing page's behaviour (src/page/landing.ts renders the markup): copy buttons, the API key
// the visitor enters, the tools it can use, and the node catalog explorer over /api/catalog.
// No framework and no build: DOM calls only, text always set as text (never as HTML).

const KEY_STORAGE = 'n8n-edge-api-key';
const $ = (id) => document.getElementById(id);
const main = $('main');
const announce = (text) => ($('announce').textContent = text);

/** An element with attributes and children (strings become text nodes). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// --- Copy buttons -----------------------------------------------------------------------------------

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain http on another host (a LAN address) has no Clipboard API: the old way still works there.
  const area = h('textarea', { class: 'vh', 'aria-hidden': 'true' }, text);
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

function wireCopyButton(button, textOf) {
  button.hidden = false;
  const label = button.firstChild.textContent;
  button.addEventListener('click', async () => {
    try {
      await copyText(textOf());
      button.firstChild.textContent = 'Copied';
      announce('Copied to the clipboard');
    } catch {
      button.firstChild.textContent = 'Select and copy';
      announce('The browser refused to copy: select the text and copy it yourself');
    }
    setTimeout(() => (button.firstChild.textContent = label), 2000);
  });
}

for (const button of document.querySelectorAll('button.copy[data-copy]')) {
  wireCopyButton(button, () => $(button.dataset.copy).textContent);
}

// --- The visitor's API key --------------------------------------------------------------------------

let apiKey = sessionStorage.getItem(KEY_STORAGE);
const publicCatalog = main.dataset.publicCatalog === 'true';

/** GET from this server's API with the key, as JSON; errors carry the status and the server's message. */
async function api(path, params) {
  const url = `${path}?${new URLSearchParams(params)}`;
  const response = await fetch(url, { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.error?.message ?? `HTTP ${response.status}`), { status: response.status });
  return body;
}

const canUse = (scopes, scope) => !scope || scopes.includes('*') || scopes.includes(scope);

function markTools(scopes) {
  const tools = document.querySelectorAll('details[data-tool]');
  let usable = 0;
  for (const tool of tools) {
    const badge = tool.querySelector('.access');
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
  $('tools-usable').textContent = scopes ? `Your key can use ${usable} of ${tools.length}.` : '';
}

async function useKey(key) {
  apiKey = key;
  try {
    const me = await api('/api/me', {});
    sessionStorage.setItem(KEY_STORAGE, key);
    $('key-status').textContent = `Using your ${me.credential}: scopes ${me.scopes.join(', ')}.`;
    $('key-status').classList.remove('error');
    $('forget-key').hidden = false;
    markTools(me.scopes);
    return true;
  } catch (error) {
    apiKey = null;
    sessionStorage.removeItem(KEY_STORAGE);
    $('key-status').textContent = error.status === 401 ? 'That key is not valid (unknown, revoked or expired).' : `Could not check the key: ${error.message}`;
    $('key-status').classList.add('error');
    markTools(null);
    return false;
  }
}

$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) return;
  if (await useKey(key)) {
    $('api-key').value = '';
    if ($('q').value || $('node-type').value) search();
  }
});

$('forget-key').addEventListener('click', () => {
  apiKey = null;
  sessionStorage.removeItem(KEY_STORAGE);
  $('forget-key').hidden = true;
  $('key-status').textContent = 'Key forgotten.';
  $('key-status').classList.remove('error');
  markTools(null);
  $('api-key').focus();
});

// --- Node catalog explorer --------------------------------------------------------------------------

const results = $('results');
const spec = $('spec');
let searchSeq = 0;
let openedFrom = null;

function explain(error) {
  if (error.status === 401) return publicCatalog ? 'That key is not valid.' : 'Enter your API key above to search the node catalog.';
  if (error.status === 403) return 'Your key lacks the nodes:read scope the catalog needs.';
  if (error.status === 429) return 'Too many searches from you in the last minute: wait a moment and try again.';
  return `The search failed: ${error.message}`;
}

/** Keeps the query, type and open node in the address, so a view can be reloaded or shared. */
function remember(node) {
  const params = new URLSearchParams();
  if ($('q').value.trim()) params.set('q', $('q').value.trim());
  if ($('node-type').value) params.set('type', $('node-type').value);
  if (node) params.set('node', `${node.node_type}/${node.subtype}`);
  history.replaceState(null, '', params.size ? `?${params}${location.hash}` : location.pathname + location.hash);
}

async function search() {
  const q = $('q').value.trim();
  const type = $('node-type').value;
  const seq = ++searchSeq;
  remember(null);
  if (!q && !type) {
    results.replaceChildren();
    $('search-status').textContent = '';
    return;
  }
  $('search-status').textContent = 'Searching…';
  try {
    const body = await api('/api/catalog/search', { ...(q ? { q, limit: '20' } : {}), ...(type ? { type } : {}) });
    if (seq !== searchSeq) return; // a newer search is on its way
    results.replaceChildren(...body.results.map(resultItem));
    const where = type ? ` among ${type}` : '';
    $('search-status').textContent = body.results.length === 0
      ? `No nodes match${q ? ` “${q}”` : ''}${where}.`
      : q ? `${body.results.length} nodes for “${q}”${where}, best first.` : `${body.results.length} nodes of type ${type}, by name.`;
    $('search-status').classList.remove('error');
  } catch (error) {
    if (seq !== searchSeq) return;
    results.replaceChildren();
    $('search-status').textContent = explain(error);
    $('search-status').classList.add('error');
  }
}

function resultItem(hit, index) {
  const meta = `${hit.node_type} · ${hit.subtype}${hit.relevance_score ? ` · score ${hit.relevance_score}` : ''}`;
  return h('li', {},
    h('button', { type: 'button', 'data-node-type': hit.node_type, 'data-subtype': hit.subtype, 'data-rank': index + 1, onclick: (e) => openNode(hit, e.currentTarget) },
      h('span', { class: 'hit-name' }, hit.display_name),
      h('span', { class: 'hit-meta' }, meta),
      h('span', { class: 'hit-desc' }, plain(hit.description))));
}

let debounce;
$('q').addEventListener('input', () => {
  clearTimeout(debounce);
  debounce = setTimeout(search, 250);
});
$('node-type').addEventListener('change', search);
$('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(debounce);
  search();
});

async function openNode(node, from) {
  openedFrom = from ?? null;
  for (const b of results.querySelectorAll('button')) b.removeAttribute('aria-current');
  from?.setAttribute('aria-current', 'true');
  spec.hidden = false;
  spec.replaceChildren(h('p', { role: 'status' }, `Loading ${node.display_name ?? node.subtype}…`));
  try {
    const body = await api('/api/catalog/spec', { type: node.node_type, subtype: node.subtype });
    spec.replaceChildren(...specView(body));
    remember(body);
  } catch (error) {
    spec.replaceChildren(h('p', { class: 'error' }, error.status === 404 ? 'This node is not in the catalog.' : explain(error)));
  }
  spec.focus();
}

function specView(s) {
  const call = JSON.stringify({ nodes: [{ node_type: s.node_type, subtype: s.subtype }] });
  const callBlock = h('pre', {}, h('code', {}, `get_node_details ${call}`));
  const copy = h('button', { type: 'button', class: 'copy' }, 'Copy', h('span', { class: 'vh' }, ' the get_node_details call'));
  wireCopyButton(copy, () => call);
  return [
    h('h3', { id: 'spec-title' }, s.display_name),
    h('p', { class: 'hit-meta' }, h('code', {}, s.node_type), ' · ', h('code', {}, s.subtype), ` · version ${s.version} · from ${s.source === 'n8n' ? 'n8n’s packages' : 'the seed taxonomy'}`),
    h('p', {}, plain(s.description)),
    s.categories?.length ? h('p', {}, `Categories: ${s.categories.join(', ')}`) : null,
    s.aliases?.length ? h('p', {}, `Also known as: ${s.aliases.join(', ')}`) : null,
    s.documentation_url ? h('p', {}, h('a', { href: s.documentation_url, rel: 'noopener noreferrer', target: '_blank' }, 'Documentation (opens a new tab)')) : null,
    h('h4', {}, `Parameters (${s.parameters.length})`),
    s.parameters.length ? h('ul', { class: 'params', id: 'spec-parameters' }, s.parameters.map(parameterItem)) : h('p', {}, 'None.'),
    h('h4', {}, 'Ports'),
    h('ul', { class: 'params', id: 'spec-ports' }, [...s.input_ports.map((p) => portItem('input', p)), ...s.output_ports.map((p) => portItem('output', p))]),
    s.examples?.length ? [h('h4', {}, `Examples (${s.examples.length})`), ...s.examples.map(exampleView)] : null,
    h('h4', {}, 'From an MCP client'),
    h('div', { class: 'snippet' }, callBlock, copy),
    h('p', {}, h('button', { type: 'button', class: 'secondary', onclick: closeNode }, 'Back to the results')),
  ];
}

/**
 * n8n's node descriptions carry HTML (links, <code>, entities): shown as plain text. An inert parsed
 * document runs nothing and loads nothing.
 */
const plain = (text) => (/[<&]/.test(text) ? new DOMParser().parseFromString(text, 'text/html').body.textContent : text);

function conditions(label, map) {
  if (!map) return null;
  const parts = Object.entries(map).map(([name, values]) => `${name} = ${values.map((v) => JSON.stringify(v)).join(' or ')}`);
  return parts.length ? h('span', { class: 'desc' }, h('br'), `${label}: ${parts.join('; ')}`) : null;
}

function parameterItem(p) {
  const choices = p.enum_values?.length
    ? `One of: ${p.enum_values.slice(0, 25).join(', ')}${p.enum_values.length > 25 ? ` (+${p.enum_values.length - 25} more)` : ''}`
    : null;
  return h('li', {},
    h('code', { class: 'name' }, p.name), ' ', h('span', { class: 'type' }, p.type),
    p.required ? [' ', h('span', { class: 'badge' }, 'required')] : null,
    p.default_value !== undefined && p.default_value !== '' ? [' ', h('span', { class: 'default' }, 'default ', h('code', {}, JSON.stringify(p.default_value)))] : null,
    p.display_name && p.display_name !== p.name ? h('span', { class: 'desc' }, h('br'), p.display_name) : null,
    p.description && p.description !== p.display_name ? h('span', { class: 'desc' }, h('br'), plain(p.description)) : null,
    choices ? h('span', { class: 'desc' }, h('br'), choices) : null,
    conditions('Shown when', p.display_options?.show),
    conditions('Hidden when', p.display_options?.hide),
    p.options?.length ? h('details', {}, h('summary', {}, `${p.options.length} options`), h('ul', {}, p.options.map(parameterItem))) : null);
}

function portItem(direction, p) {
  const limit = p.max_connections === null ? 'any number of connections' : `up to ${p.max_connections} connection${p.max_connections === 1 ? '' : 's'}`;
  return h('li', {}, `${direction} `, h('code', { class: 'name' }, p.name), ' ', h('span', { class: 'type' }, p.type),
    p.required ? [' ', h('span', { class: 'badge' }, 'required')] : null,
    h('span', { class: 'desc' }, h('br'), [plain(p.description), limit].filter(Boolean).join(' · ')));
}

function exampleView(e) {
  return h('div', {}, h('h5', {}, e.name), e.description ? h('p', {}, plain(e.description)) : null, h('pre', {}, h('code', {}, JSON.stringify(e.parameters, null, 2))));
}

function closeNode() {
  spec.hidden = true;
  spec.replaceChildren();
  remember(null);
  (openedFrom?.isConnected ? openedFrom : $('q')).focus();
}

// --- Start: the key kept in this tab, and the view in the address -------------------------------------

const start = new URLSearchParams(location.search);
$('q').value = start.get('q') ?? '';
$('node-type').value = start.get('type') ?? '';
if (apiKey) await useKey(apiKey);
if ($('q').value || $('node-type').value) await search();
const node = start.get('node')?.match(/^([A-Z_]+)\/(.+)$/);
if (node) {
  const from = [...results.querySelectorAll('button')].find((b) => b.dataset.nodeType === node[1] && b.dataset.subtype === node[2]);
  await openNode({ node_type: node[1], subtype: node[2] }, from);
}
