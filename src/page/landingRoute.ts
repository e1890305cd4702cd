import type { IRequest } from 'itty-router';
import { nodePolicyOf, policySummary } from '../auth/nodePolicy';
import { Catalog } from '../catalog/catalog';
import { SERVER_NAME, SERVER_TITLE, SERVER_VERSION } from '../config';
import type { Env } from '../env';
import { html, htmlResponse } from '../http/html';
import { connectGuides } from './connect';
import { landingPage } from './landingHtml';
import { toolView } from './toolView';
import { drivesN8n, servesWorkspaces } from '../n8n/client';
import { toolsFor } from '../server/registry';
import { TRANSPORTS } from '../config';

/** Scripts and styles only from /assets (public/assets), data only from this server's own API. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'";

/** GET /: the landing page, built from what this deployment serves. */
export async function landing(request: IRequest, env: Env): Promise<Response> {
  const catalog = new Catalog(env.SPECS);
  const [manifest, types] = await Promise.all([catalog.manifest(), catalog.types()]);
  const { origin } = new URL(request.url);
  const body = landingPage({
    origin,
    name: SERVER_NAME,
    title: SERVER_TITLE,
    version: SERVER_VERSION,
    catalog: manifest,
    nodeTypes: Object.entries(types).map(([type, subtypes]) => [type, subtypes.length]),
    transports: TRANSPORTS,
    n8nConfigured: drivesN8n(env),
    workspaces: servesWorkspaces(env),
    publicCatalog: env.PUBLIC_CATALOG === 'true',
    guides: connectGuides(origin),
    tools: toolsFor(env).map(toolView),
    nodeClasses: policySummary(nodePolicyOf(env)),
  });
  const head = html`<link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/page.css"><script type="module" src="/assets/page.js"></script>`;
  return htmlResponse({ title: `${SERVER_TITLE} — MCP server`, body, head, csp: CSP });
}
