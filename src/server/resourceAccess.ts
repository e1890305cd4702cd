import { ProtocolError, ProtocolErrorCode, type McpServer, type RegisteredResourceTemplate, type ServerContext } from '@modelcontextprotocol/server';
import { wrapRequestHandler } from './sdkInternals';
import { requestPrincipal } from './caller';
import { allows, type Scope } from '../auth/scopes';

/** A resource template whose resources, and their completions, need a scope. */
export interface GuardedResources {
  /** The template as the server registered it. */
  registered: RegisteredResourceTemplate;
  /** How a refusal names its resources (`node-spec://`). */
  named: string;
  scope: Scope;
}

/**
 * Scopes on an SDK server's resources, as guardTools does for tools: the template list shows the guarded
 * template only to a caller whose scopes allow it, and reading one or completing its template is
 * refused with an error naming the scope. The caller is each request's own (src/server/caller.ts): a
 * session's server is built once, and a refreshed token may carry fewer scopes than the first.
 *
 * A read is checked inside the template's own read callback, so whatever URI the SDK matches to the
 * template (`NODE-SPEC://…` and ` node-spec://…` are node-spec URIs to its URL parser) is checked, and
 * no second reading of URIs here can drift from the SDK's. Completions name the template exactly, as
 * the SDK compares them.
 */
export function guardResources(server: McpServer, { registered, named, scope }: GuardedResources): void {
  const uriTemplate = registered.resourceTemplate.uriTemplate.toString();
  const allowed = (ctx: ServerContext) => allows(requestPrincipal(ctx).scopes, scope);
  const refuse = () => {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Forbidden: ${named} resources need the scope "${scope}", which this credential does not have`);
  };

  wrapRequestHandler(server, 'resources/templates/list', (list) => async (request, ctx) => {
    const result = await list(request, ctx);
    if (allowed(ctx)) return result;
    return { ...result, resourceTemplates: (result.resourceTemplates as { uriTemplate: string }[]).filter((t) => t.uriTemplate !== uriTemplate) };
  });
  const read = registered.readCallback;
  registered.update({
    callback: (uri, variables, ctx) => {
      if (!allowed(ctx)) refuse();
      return read(uri, variables, ctx);
    },
  });
  wrapRequestHandler(server, 'completion/complete', (complete) => async (request, ctx) => {
    const ref = request.params?.ref as { type?: unknown; uri?: unknown } | undefined;
    if (ref?.type === 'ref/resource' && ref.uri === uriTemplate && !allowed(ctx)) refuse();
    return complete(request, ctx);
  });
}
