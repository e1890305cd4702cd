import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { Catalog } from '../catalog/catalog';
import { withNodeLooks } from '../catalog/nodeLooks';
import type { Env } from '../env';
import { VIEW_HTML } from '../view/built';
import type { ToolDefinition } from '../tools/tool';
import { requestClientCapabilities } from './clientCapabilities';
import { wrapRequestHandler } from './sdkInternals';

/** The MCP Apps extension (SEP-1865), as hosts declare it among their capabilities' extensions. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one kind of view MCP Apps defines: an HTML document rendered in a sandboxed frame. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The workflow view (src/view): draws a workflow, its findings and its runs beside the tools' answers. */
export const VIEW_URI = 'ui://n8n-mcp-edge/workflow-view.html';

/** The view's HTML for the catalog version an isolate last served it with (the looks are 100 KB and more of JSON). */
let served: { version: string | null; html: string } | undefined;

/** The view's HTML with the current catalog's node looks (names, colours, icons) in it; without, when the catalog has none. */
async function viewHtml(catalog: Catalog): Promise<string> {
  const version = await catalog.version();
  if (served?.version !== version) served = { version, html: withNodeLooks(VIEW_HTML, version === null ? null : await catalog.looks()) };
  return served.html;
}

/** Whether a request's client renders MCP Apps: it declares the extension, with the HTML profile among its types. */
function rendersApps(server: McpServer, ctx: ServerContext): boolean {
  const extensions = requestClientCapabilities(server, ctx).extensions as Record<string, unknown> | undefined;
  const ui = extensions?.[APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}

/**
 * The workflow view for hosts that render MCP Apps: the view is a `ui://` resource, and each tool
 * whose answer it can draw (`view: true`) names it in `_meta.ui.resourceUri`. A client that declares no
 * app support lists neither, so it sees byte for byte what it saw before the view; every answer is the
 * same for all clients (the view reads the call's arguments and answer, which the host hands it, and
 * asks for anything more through the host's tools/call, under the caller's scopes, policies and limits).
 * The view's HTML is public (it holds no data), so reading it needs no scope.
 */
export function installView(server: McpServer, env: Env, tools: readonly ToolDefinition[]): void {
  const catalog = new Catalog(env.SPECS);
  const drawn = new Set(tools.filter((tool) => tool.view).map((tool) => tool.name));
  server.registerResource(
    'workflow-view',
    VIEW_URI,
    {
      title: 'Workflow view',
      description: 'Draws an n8n workflow as the editor does, with its findings, the changes a call made and what a run did',
      mimeType: APP_MIME_TYPE,
    },
    async (uri) => ({
      // No domains: the view loads nothing from anywhere (its script, style and icons are inline).
      contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: await viewHtml(catalog), _meta: { ui: { csp: {}, prefersBorder: true } } }],
    }),
  );
  wrapRequestHandler(server, 'resources/list', (list) => async (request, ctx) => {
    const result = await list(request, ctx);
    if (rendersApps(server, ctx)) return result;
    return { ...result, resources: (result.resources as { uri: string }[]).filter((resource) => resource.uri !== VIEW_URI) };
  });
  wrapRequestHandler(server, 'tools/list', (list) => async (request, ctx) => {
    const result = await list(request, ctx);
    if (!rendersApps(server, ctx)) return result;
    const linked = (result.tools as { name: string; _meta?: Record<string, unknown> }[]).map((tool) =>
      drawn.has(tool.name) ? { ...tool, _meta: { ...tool._meta, ui: { resourceUri: VIEW_URI } } } : tool,
    );
    return { ...result, tools: linked };
  });
}
