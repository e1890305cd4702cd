import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';

/**
 * The caller travels with each request as the SDK's auth info, in both eras: the Worker authenticated
 * it (src/auth), and the session object or the 2026-07-28 leg hands it to the SDK with the request
 * (`transport.handleRequest(…, { authInfo })`, `onmessage(message, { authInfo })`), which gives it to
 * every handler as `ctx.http.authInfo`. A session's server is built once and serves requests that may
 * interleave, so nothing about the caller is kept on the server or the object.
 */
export function authInfoOf(principal: Principal): AuthInfo {
  return { token: '', clientId: principal.id, scopes: [...principal.scopes], extra: { principal } };
}

/** The principal a request's auth info carries. */
export function principalIn(authInfo: AuthInfo | undefined): Principal {
  const principal = authInfo?.extra?.principal as Principal | undefined;
  if (!principal) throw new Error('no caller: a request reached the MCP server without the auth info the Worker gives it');
  return principal;
}

/** Who sent the request being served. */
export const requestPrincipal = (ctx: Pick<ServerContext, 'http'>): Principal => principalIn(ctx.http?.authInfo);
