import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { wrapRequestHandler } from './sdkInternals';
import { requestPrincipal } from './caller';
import { allows, type Scope } from '../auth/scopes';

/** A resource template whose resources, and their completions, need a scope. */
export interface GuardedResources {
  uriTemplate: string;
  /** Every URI of the template's resources starts with it. */
  uriPrefix: string;
  scope: Scope;
}

/**
 * Scopes on an SDK server's resources, as guardTools does for tools: the template list shows the guarded
 * template only to a caller whose scopes allow it, and reading one or completing its template is
 * refused with an error naming the scope. The caller is each request's own (src/server/caller.ts): a
 * session's server is built once, and a refreshed token may carry fewer scopes than the first.
 */
export function guardResources(server: McpServer, guarded: GuardedResources): void {
  const allowed = (ctx: ServerContext) => allows(requestPrincipal(ctx).scopes, guarded.scope);
  const refuse = () => {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Forbidden: ${guarded.uriPrefix} resources need the scope "${guarded.scope}", which this credential does not have`,
    );
  };

  wrapRequestHandler(server, 'resources/templates/list', (list) => async (request, ctx) => {
    const result = await list(request, ctx);
    if (allowed(ctx)) return result;
    return { ...result, resourceTemplates: (result.resourceTemplates as { uriTemplate: string }[]).filter((t) => t.uriTemplate !== guarded.uriTemplate) };
  });
  wrapRequestHandler(server, 'resources/read', (read) => async (request, ctx) => {
    if (String(request.params?.uri).startsWith(guarded.uriPrefix) && !allowed(ctx)) refuse();
    return read(request, ctx);
  });
  wrapRequestHandler(server, 'completion/complete', (complete) => async (request, ctx) => {
    const ref = request.params?.ref as { type?: unknown; uri?: unknown } | undefined;
    if (ref?.type === 'ref/resource' && ref.uri === guarded.uriTemplate && !allowed(ctx)) refuse();
    return complete(request, ctx);
  });
}
