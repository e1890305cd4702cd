import { OAuthAuthorizationServer, OAuthError } from '@cloudflare/workers-oauth-provider';
import { SERVER_NAME } from '../config';
import type { Env } from '../env';
import { clientAddress } from '../http/clientAddress';
import { LruMap } from '../lib/lruMap';
import { activeKeyByHash, constantTimeEqual, sha256Hex } from './apiKeys';
import { cachedKeyRecords } from './keyCache';
import type { Principal } from '../principal';
import { RATE_LIMIT_PERIOD_SECONDS, withinLimit } from './rateLimit';
import { narrow, SCOPES, type Scope } from './scopes';
import { workspaceStands } from '../workspaces/workspaces';

/**
 * OAuth 2.1 for clients that cannot send a pasted key (claude.ai connectors, mcp-remote), through
 * @cloudflare/workers-oauth-provider: authorization-server metadata (RFC 8414), dynamic client
 * registration, PKCE, refresh tokens, tokens bound to a resource (RFC 8707) and carrying the granted
 * scopes. This server is its own authorization server; the consent step is src/auth/consent.ts.
 */
export const AUTHORIZE_PATH = '/authorize';
const TOKEN_PATH = '/oauth/token';
const REGISTER_PATH = '/oauth/register';
const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
const PRM_PREFIX = '/.well-known/oauth-protected-resource';

/**
 * Two protected resources, one per transport family, so a client gets a token for the URL it was
 * given: `/mcp` (Streamable HTTP, and `/mcp/sse` beneath it) and `/sse` (with its `/messages`).
 */
const resourcePaths = ['/mcp', '/sse'] as const;
const resourcePathOf = (url: URL): (typeof resourcePaths)[number] => (url.pathname === '/sse' || url.pathname === '/messages' ? '/sse' : '/mcp');

/** Where a client learns how to get a token for the route it called (RFC 9728), named in every 401. */
export const resourceMetadataUrl = (url: URL): string => `${url.origin}${PRM_PREFIX}${resourcePathOf(url)}`;

/** What the grant keeps (encrypted by the library) so each request can re-check the credential behind it. */
export interface GrantProps {
  subject: string;
  /** SHA-256 of the API key the grant was approved with: revoking or expiring the key ends the grant. */
  keyHash?: string;
  /** SHA-256 of the operator password it was approved with: changing the password ends the grant. */
  operatorHash?: string;
}

/**
 * Origins whose authorization server an isolate keeps. A deployment answers on a few (workers.dev, custom
 * domains, localhost) and each is cheap to build again, but a wildcard route lets any subdomain reach it.
 */
const MAX_ORIGINS = 16;

/**
 * The authorization server for one origin. The issuer and resources must be absolute URLs fixed at
 * construction, and a deployment may answer on several hostnames (workers.dev, custom domains,
 * localhost), so there is one per origin, built on first use. The origin is one the server accepts:
 * behind Cloudflare only the account's hostnames route here, and elsewhere ALLOWED_HOSTS (with its
 * port) has refused any other before this is reached (src/http/hosts.ts).
 */
const servers = new LruMap<string, OAuthAuthorizationServer<Env>>(MAX_ORIGINS);
export function authorizationServer(origin: string): OAuthAuthorizationServer<Env> {
  return servers.getOrMake(
    origin,
    () =>
      new OAuthAuthorizationServer<Env>({
        issuer: origin,
        resources: resourcePaths.map((path) => `${origin}${path}`),
        // Older clients send no `resource`; most connect to /mcp.
        defaultResource: `${origin}/mcp`,
        authorizeEndpoint: AUTHORIZE_PATH,
        tokenEndpoint: TOKEN_PATH,
        clientRegistrationEndpoint: REGISTER_PATH,
        scopesSupported: [...SCOPES],
        accessTokenTTL: 3600,
        // Each token request (a code's exchange, a refresh) re-checks the credential the grant was approved
        // with: once it is revoked, expired or changed, the grant issues nothing more. invalid_grant also
        // has the library revoke the grant with its tokens.
        tokenExchangeCallback: async ({ props, env }) => {
          if (await grantCredential(env, props as GrantProps)) return;
          throw new OAuthError('invalid_grant', {
            description: 'The API key or operator password this grant was approved with is no longer valid: authorize the client again',
          });
        },
        // Reasons only: the library never puts secrets in them, and neither do we.
        onError: ({ code, status, internal }) => {
          console.warn(JSON.stringify({ level: 'warn', oauth: code, status, category: internal.category, reason: internal.reason }));
        },
      }),
  );
}

/** Discovery, registration, token and revocation: answered by the library. */
export const isOAuthEndpoint = (pathname: string): boolean => pathname === AS_METADATA_PATH || pathname === TOKEN_PATH || pathname === REGISTER_PATH;

/**
 * Answers an OAuth endpoint (isOAuthEndpoint). Registrations and token requests are counted per client
 * address first (OAUTH_LIMITER): each stores something, and a real client registers once and refreshes
 * hourly. Past the limit, a 429 in OAuth's error format (RFC 6749 §5.2), as the library answers its own.
 */
export async function serveOAuthEndpoint(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  const stores = request.method === 'POST' && (url.pathname === TOKEN_PATH || url.pathname === REGISTER_PATH);
  if (stores && !(await withinLimit(env, env.OAUTH_LIMITER, clientAddress(request, env)))) {
    const error = {
      error: 'temporarily_unavailable',
      error_description: `Too many registration and token requests from this address: try again in ${RATE_LIMIT_PERIOD_SECONDS} seconds`,
    };
    return Response.json(error, { status: 429, headers: { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS), 'Cache-Control': 'no-store' } });
  }
  return authorizationServer(url.origin).fetch(request, env, ctx);
}

/** RFC 9728 protected resource metadata for `/mcp` and `/sse`; null for any other path. */
export function protectedResourceMetadata(url: URL): Response | null {
  if (!url.pathname.startsWith(PRM_PREFIX)) return null;
  const path = url.pathname.slice(PRM_PREFIX.length);
  if (!(resourcePaths as readonly string[]).includes(path)) return null;
  return Response.json(
    {
      resource: `${url.origin}${path}`,
      authorization_servers: [url.origin],
      bearer_methods_supported: ['header'],
      scopes_supported: SCOPES,
      resource_name: SERVER_NAME,
    },
    { headers: { 'Cache-Control': 'public, max-age=3600' } },
  );
}
export const isProtectedResourceMetadataPath = (pathname: string): boolean => pathname.startsWith(PRM_PREFIX);

/**
 * The library's tokens are `<userId>:<grantId>:<secret>`, our user ids `key_<key id>` or `operator` (see `keyPrincipalId`).
 * Anything else is refused before it becomes a KV key (which has a length limit of its own).
 */
const OAUTH_TOKEN = /^[\w-]{1,64}:[\w-]{16}:[\w-]{16,128}$/;

/**
 * The principal of an OAuth access token presented at `url`, or null. A token for either of this
 * origin's resources is accepted on every route: both are this server, for the same grant. The
 * credential the grant was approved with must still be good, and narrows what the token carries.
 */
export async function oauthPrincipal(env: Env, url: URL, token: string): Promise<Principal | null> {
  if (!OAUTH_TOKEN.test(token)) return null;
  const summary = await authorizationServer(url.origin).getOAuthApi(env).unwrapToken<GrantProps>(token);
  if (!summary) return null;
  const audiences = [summary.audience ?? []].flat();
  if (!resourcePaths.some((path) => audiences.includes(`${url.origin}${path}`))) return null;
  const props = summary.grant.props;
  const credential = await grantCredential(env, props);
  if (!credential) return null;
  const { scopes, workspace } = credential;
  return { id: `grant_${summary.grantId}`, subject: props.subject, scopes: narrow(summary.scope as Scope[], scopes), ...(workspace ? { workspace } : {}) };
}

/**
 * What the credential behind a grant allows now, and the workspace it acts in (the key's: a grant
 * belongs to the workspace of the key it was approved with); null once the key is revoked or expired,
 * its workspace removed, or the operator password changed.
 */
async function grantCredential(env: Env, props: GrantProps): Promise<{ scopes: readonly string[]; workspace?: string } | null> {
  if (props.keyHash) {
    const key = await activeKeyByHash(cachedKeyRecords(env), props.keyHash);
    if (!key || !(await workspaceStands(env, key))) return null;
    return { scopes: key.scopes, ...(key.workspace ? { workspace: key.workspace } : {}) };
  }
  if (props.operatorHash && env.OPERATOR_PASSWORD && constantTimeEqual(await sha256Hex(env.OPERATOR_PASSWORD), props.operatorHash)) return { scopes: ['*'] };
  return null;
}
