import type { JSONRPCRequest, McpServer, ServerContext } from '@modelcontextprotocol/server';

/** A request handler as the SDK keeps it: the raw request in, the result out. */
export type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Record<string, unknown>>;

/**
 * Puts a layer around a handler the SDK has registered (its tool handlers exist once a tool is
 * registered). The SDK has no hook for checks that must run before its own (scopes, tasks), so the
 * layer goes into its private handler map; `wrap` gets the SDK's handler to call on.
 */
export function wrapRequestHandler(server: McpServer, method: string, wrap: (inner: RequestHandler) => RequestHandler): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  const inner = handlers.get(method);
  if (!inner) throw new Error(`no ${method} handler to wrap: register the tools first`);
  handlers.set(method, wrap(inner));
}
