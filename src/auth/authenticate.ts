import type { Env } from '../env';
import { clientAddress } from '../http/clientAddress';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';
import { KEY_PREFIX, verifyApiKey } from './apiKeys';
import { cachedKeyRecords } from './keyCache';
import { oauthPrincipal, resourceMetadataUrl } from './oauth';
import { keyPrincipalId, type Principal } from '../principal';
import { allows, type Scope } from './scopes';
import { workspaceStands } from '../workspaces/workspaces';

/** RFC 6750: one scheme, one token of visible ASCII (OAuth tokens here contain ':'). */
const BEARER = /^Bearer +([\x21-\x7e]{1,1024})$/i;

/**
 * Who is calling: an API key (`Bearer n2f_…`) or an OAuth access token. Anything else is a 401 whose
 * body and header are the same whatever failed (no header aside), so a caller learns nothing about
 * a key it guessed. Without any credential, only a deployment that set ALLOW_ANONYMOUS=true serves.
 */
export async function authenticate(request: Request, env: Env): Promise<Principal> {
  const header = request.headers.get('authorization');
  if (header === null) {
    if (env.ALLOW_ANONYMOUS === 'true') {
      return { id: 'anonymous', subject: `ip_${clientAddress(request, env)}`, scopes: ['*'] };
    }
    throw unauthorized(new URL(request.url), false);
  }
  const token = BEARER.exec(header)?.[1];
  const principal =
    token === undefined ? null : token.startsWith(KEY_PREFIX) ? await keyPrincipal(env, token) : await oauthPrincipal(env, new URL(request.url), token);
  if (!principal) throw unauthorized(new URL(request.url), true);
  return principal;
}

async function keyPrincipal(env: Env, token: string): Promise<Principal | null> {
  const key = await verifyApiKey(cachedKeyRecords(env), token);
  if (!key || !(await workspaceStands(env, key))) return null;
  return { id: keyPrincipalId(key.id), subject: keyPrincipalId(key.id), scopes: key.scopes, ...(key.workspace ? { workspace: key.workspace } : {}) };
}

/** RFC 6750 §3.1: the credential is good but lacks `scope` (the page's API; MCP tools refuse with a tool result). */
export function requireScope(request: Request, principal: Principal, scope: Scope): void {
  if (allows(principal.scopes, scope)) return;
  throw new HttpError(403, ErrorCode.InvalidRequest, `Forbidden: this credential lacks the ${scope} scope`, {
    'WWW-Authenticate': [...challengeOf(new URL(request.url)), 'error="insufficient_scope"', `scope="${scope}"`].join(', '),
  });
}

const challengeOf = (url: URL) => [`Bearer realm="n8n-mcp"`, `resource_metadata="${resourceMetadataUrl(url)}"`];

function unauthorized(url: URL, presented: boolean): HttpError {
  const challenge = challengeOf(url);
  if (presented) challenge.push('error="invalid_token"', 'error_description="The access token is invalid, expired or revoked"');
  return new HttpError(401, ErrorCode.InvalidRequest, 'Unauthorized: send Authorization: Bearer with an API key or an OAuth access token', {
    'WWW-Authenticate': challenge.join(', '),
  });
}
