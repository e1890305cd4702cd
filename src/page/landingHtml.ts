import type { NodeClassSummary } from '../auth/nodePolicy';
import type { CatalogManifest } from '../catalog/build';
import { html, type Html } from '../http/html';
import { listInstances } from '../tools/listInstances';
import { N8N_TOOLS } from '../tools/n8n';
import { KEY_PLACEHOLDER, type ClientGuide } from './connect';
import type { ParameterView, ToolView } from './toolView';

/** The tools a deployment serves once it drives an n8n (src/server/registry.ts): list_instances and the n8n tools. */
const N8N_TOOL_COUNT = [listInstances, ...N8N_TOOLS].length;

export interface LandingInfo {
  origin: string;
  name: string;
  title: string;
  version: string;
  catalog: CatalogManifest | null;
  /** Node types with how many nodes each has. */
  nodeTypes: [string, number][];
  transports: readonly string[];
  n8nConfigured: boolean;
  /** Whether workspaces bring their own n8n here (CONNECTION_KEYS is set): the page then lets a key of one add its connections. */
  workspaces: boolean;
  /** Whether the explorer answers without a credential (PUBLIC_CATALOG). */
  publicCatalog: boolean;
  guides: ClientGuide[];
  tools: ToolView[];
  /** The node classes and whether this deployment lets callers use each (src/auth/nodePolicy.ts). */
  nodeClasses: NodeClassSummary[];
}

/**
 * The page at GET /: what this server is, how to connect, its tools and a node catalog explorer.
 * Everything here is the same for every visitor (no key, no n8n URL); what depends on the caller is
 * fetched by /assets/page.js with the key they enter.
 */
export function landingPage(info: LandingInfo): Html {
  return html`<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <div class="wrap">
    <h1>${info.title}</h1>
    <p class="lead">A remote MCP server for agents that build n8n workflows: it knows the workflow nodes that exist${info.n8nConfigured ? ' and drives an n8n instance' : ''}.</p>
    ${facts(info)}
    <nav aria-label="On this page"><a href="#connect">Connect</a> <a href="#access">Your API key</a> <a href="#n8n">Your n8n</a> <a href="#catalog">Node catalog</a> <a href="#tools">Tools</a></nav>
  </div>
</header>
<main id="main" class="wrap" data-public-catalog="${String(info.publicCatalog)}">
  ${connectSection(info.guides)}
  ${accessSection(info)}
  ${n8nSection(info)}
  ${catalogSection(info)}
  ${toolsSection(info)}
  <p id="announce" class="vh" role="status"></p>
</main>
<footer class="wrap"><p>${info.name} ${info.version} · <a href="/health">/health</a> · the same catalog answers MCP clients through <code>search_nodes</code> and <code>get_node_details</code>.</p></footer>`;
}

function facts(info: LandingInfo): Html {
  const catalog = info.catalog
    ? html`${info.catalog.specs} node specifications (${info.catalog.sources.join(' + ')}) · version <code>${info.catalog.version}</code>`
    : 'not loaded: run npm run catalog:load';
  return html`<dl class="facts">
  <div><dt>MCP endpoint</dt><dd><code id="endpoint">${info.origin}/mcp</code> <button type="button" class="copy" data-copy="endpoint" hidden>Copy<span class="vh"> the MCP endpoint</span></button></dd></div>
  <div><dt>Version</dt><dd>${info.version}</dd></div>
  <div><dt>Node catalog</dt><dd>${catalog}</dd></div>
  <div><dt>Transports</dt><dd><ul class="inline">${info.transports.map((t) => html`<li>${t}</li>`)}</ul></dd></div>
  <div><dt>n8n tools</dt><dd>${info.n8nConfigured ? 'configured' : html`not configured (the operator sets <code>N8N_API_URL</code> and <code>N8N_API_KEY</code>)`}</dd></div>
</dl>`;
}

function accessSection(info: LandingInfo): Html {
  return html`<section id="access" aria-labelledby="access-title">
  <h2 id="access-title">Your API key</h2>
  <p>Every MCP client needs an API key (<code>n2f_…</code>, from <code>npm run keys -- create</code>) or an OAuth sign-in.
  Enter your key to see which tools it can use${info.publicCatalog ? '' : ' and to search the node catalog'}: it stays in this browser tab and is sent only to this server.</p>
  <form id="key-form" class="row">
    <label for="api-key">API key</label>
    <input id="api-key" name="key" type="password" autocomplete="off" spellcheck="false" placeholder="n2f_…">
    <button type="submit">Use key</button>
    <button type="button" id="forget-key" class="secondary" hidden>Forget key</button>
  </form>
  <p id="key-status" role="status">${info.publicCatalog ? 'No key entered: the node catalog is open to everyone here (nodes:read).' : 'No key entered.'}</p>
</section>`;
}

/**
 * The n8n the visitor's key acts on: filled in by the script from GET /api/instances once a key is
 * entered; where workspaces are on, a form to test and save a connection (shown to a key that may).
 */
function n8nSection(info: LandingInfo): Html {
  return html`<section id="n8n" aria-labelledby="n8n-title">
  <h2 id="n8n-title">Your n8n</h2>
  <p>${
    info.workspaces
      ? html`Each workspace brings its own n8n. Enter an API key of yours above to see the n8n instances its tools act on, and, with the <code>instances:write</code> scope, to add one: its n8n API key is tested first, stored encrypted, and never shown again.`
      : html`The n8n tools act on the n8n this server’s operator configured (<code>N8N_API_URL</code> and <code>N8N_API_KEY</code>). Enter your API key above to see it and the tools live for your key.`
  }</p>
  <p id="n8n-status" role="status">Enter your API key above to see your n8n.</p>
  <ul id="n8n-list" class="connections" aria-label="Your n8n instances" tabindex="-1" hidden></ul>
  <p id="n8n-tools" hidden></p>
  ${info.workspaces && connectionForm()}
</section>`;
}

/** Hidden until the script knows the key may add a connection; the n8n key's field is a password field, emptied once saved. */
function connectionForm(): Html {
  return html`<form id="n8n-form" class="connection-form" aria-labelledby="n8n-add-title" hidden>
    <h3 id="n8n-add-title">Add an n8n</h3>
    <p>A connection saved under the name of one you have replaces it, once the new one’s test passes.</p>
    <div class="field">
      <label for="n8n-name">Connection name</label>
      <input id="n8n-name" name="name" value="main" required maxlength="40" autocomplete="off" spellcheck="false" aria-describedby="n8n-name-hint">
      <span id="n8n-name-hint" class="hint">Lower-case letters, digits, - or _ (what a tool’s <code>instance</code> argument takes).</span>
    </div>
    <div class="field">
      <label for="n8n-url">n8n URL</label>
      <input id="n8n-url" name="url" type="url" required placeholder="https://n8n.example.com" autocomplete="off" spellcheck="false" aria-describedby="n8n-url-hint">
      <span id="n8n-url-hint" class="hint">The address its editor opens at, over https.</span>
    </div>
    <div class="field">
      <label for="n8n-key">n8n API key</label>
      <input id="n8n-key" name="apiKey" type="password" required autocomplete="off" spellcheck="false" aria-describedby="n8n-key-hint">
      <span id="n8n-key-hint" class="hint">From n8n: Settings → n8n API.</span>
    </div>
    <p class="row"><button type="button" id="n8n-test" class="secondary">Test</button> <button type="submit">Save</button></p>
    <p id="n8n-result" role="status"></p>
  </form>`;
}

function connectSection(guides: ClientGuide[]): Html {
  return html`<section id="connect" aria-labelledby="connect-title">
  <h2 id="connect-title">Connect</h2>
  <p>Replace <code>${KEY_PLACEHOLDER}</code> with your key.</p>
  <div class="guides">${guides.map(guide)}</div>
</section>`;
}

function guide(g: ClientGuide): Html {
  return html`<article class="guide" id="connect-${g.id}" aria-labelledby="connect-${g.id}-title">
  <h3 id="connect-${g.id}-title">${g.title}</h3>
  ${g.steps.map((s) => html`<p>${s}</p>`)}
  ${g.snippets.map(
    (s, i) => html`${s.caption && html`<p class="caption">${s.caption}</p>`}<div class="snippet"><pre id="snippet-${g.id}-${i}"><code>${s.text}</code></pre>
  <button type="button" class="copy" data-copy="snippet-${g.id}-${i}" hidden>Copy<span class="vh"> the ${s.label}</span></button></div>`,
  )}
</article>`;
}

function catalogSection(info: LandingInfo): Html {
  return html`<section id="catalog" aria-labelledby="catalog-title">
  <h2 id="catalog-title">Node catalog</h2>
  <p>Search the nodes an agent can use, ranked the way <code>search_nodes</code> ranks them, and open one to see its parameters, ports and examples.</p>
  <form id="search-form" role="search" class="row">
    <label for="q">Search nodes</label>
    <input id="q" name="q" type="search" placeholder="send email, google sheets, vector store" autocomplete="off">
    <label for="node-type">Node type</label>
    <select id="node-type" name="type">
      <option value="">All types</option>
      ${info.nodeTypes.map(([type, count]) => html`<option value="${type}">${type} (${count})</option>`)}
    </select>
    <button type="submit">Search</button>
  </form>
  <noscript><p>The explorer needs JavaScript. MCP clients get the same answers from <code>search_nodes</code> and <code>get_node_details</code>.</p></noscript>
  <p id="search-status" role="status"></p>
  <div class="explorer">
    <ol id="results" aria-label="Search results"></ol>
    <article id="spec" aria-label="Node specification" tabindex="-1" hidden></article>
  </div>
</section>`;
}

function toolsSection(info: LandingInfo): Html {
  return html`<section id="tools" aria-labelledby="tools-title">
  <h2 id="tools-title">Tools</h2>
  <p id="tools-summary">${info.tools.length} tools${info.n8nConfigured ? '' : ` (the ${N8N_TOOL_COUNT} n8n tools appear once an n8n instance is configured)`}. Each needs the scope shown; enter a key above to see which yours can use. <span id="tools-usable"></span></p>
  <ul class="tools">${info.tools.map(tool)}</ul>
  ${info.n8nConfigured ? nodeClassesList(info.nodeClasses) : ''}
</section>`;
}

/** What a workflow put into n8n through this server may do, class by class: allowed here or not, and the scope a key needs. */
function nodeClassesList(classes: NodeClassSummary[]): Html {
  return html`<h3 id="node-classes">What workflows may do on your n8n</h3>
  <p>Nodes that reach beyond their items are put into n8n, or run, only for a key with the scope of their class, and only in the classes this deployment allows (<code>ALLOWED_NODE_CLASSES</code>).</p>
  <ul class="node-classes">${classes.map(
    (c) =>
      html`<li data-class="${c.class}"><strong>${c.class}</strong>: ${c.lets}. ${c.allowed ? html`Allowed here, with the scope <code>${c.scope}</code>.` : html`Not allowed here, to any key.`}</li>`,
  )}</ul>`;
}

function tool(t: ToolView): Html {
  return html`<li><details data-tool="${t.name}" data-scope="${t.scope ?? ''}">
  <summary><code class="name">${t.name}</code> <span class="tool-title">${t.title}</span> <span class="badge scope">${t.scope?.replaceAll(' ', ' + ') ?? 'any key'}</span> <span class="badge access" hidden></span></summary>
  <p>${t.description}</p>
  <p class="annotations">${t.annotations.map(([name, value]) => html`<code>${name}: ${String(value)}</code> `)}</p>
  ${t.parameters.length === 0 ? html`<p>No input parameters.</p>` : html`<p><strong>Input parameters</strong></p><ul class="params">${t.parameters.map(parameter)}</ul>`}
</details></li>`;
}

function parameter(p: ParameterView): Html {
  return html`<li><code class="name">${p.name}</code> <span class="type">${p.type}</span>${p.required ? html` <span class="badge">required</span>` : ''}${p.default !== undefined ? html` <span class="default">default <code>${p.default}</code></span>` : ''}
  ${p.description && html`<br><span class="desc">${p.description}</span>`}</li>`;
}
