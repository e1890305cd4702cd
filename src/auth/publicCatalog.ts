import type { Env } from '../env';
import { clientAddress } from '../http/clientAddress';
import type { Principal } from '../principal';

/**
 * The visitor of the landing page's catalog API who sent no credential, when the operator set
 * PUBLIC_CATALOG=true: nodes:read and nothing else, rate-limited per IP address. Null whenever a
 * credential was sent (it is checked as usual) or the catalog is not public.
 */
export function publicReader(request: Request, env: Env): Principal | null {
  if (env.PUBLIC_CATALOG !== 'true' || request.headers.has('authorization')) return null;
  // A deployment serving everyone with every scope (ALLOW_ANONYMOUS) keeps doing so here.
  if (env.ALLOW_ANONYMOUS === 'true') return null;
  return { id: 'public', subject: `ip_${clientAddress(request, env)}`, scopes: ['nodes:read'] };
}
