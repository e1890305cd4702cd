import { AuthorizationError, authorizationErrorRedirect, CimdFetchError, type AuthRequest, type ConsentDescription } from '@cloudflare/workers-oauth-provider';
import type { IRequest } from 'itty-router';
import type { Env } from '../env';
import { clientAddress } from '../http/clientAddress';
import { html, htmlResponse, type Html } from '../http/html';
import { constantTimeEqual, KEY_PREFIX, readKeyRecord, sha256Hex, verifyApiKey } from './apiKeys';
import { authorizationServer, type GrantProps } from './oauth';
import { keyPrincipalId } from '../principal';
import { RATE_LIMIT_PERIOD_SECONDS, withinLimit } from './rateLimit';
import { isScope, narrow, type Scope } from './scopes';

/**
 * GET/POST /authorize: the human step of the OAuth flow. The page names the client, where the tokens
 * will go and the scopes asked for, and takes an API key (or the operator password, when the
 * operator set OPERATOR_PASSWORD). The grant gets the scopes asked for that the credential has.
 */
export async function showConsent(request: IRequest, env: Env): Promise<Response> {
  return answerErrors(async () => {
    const oauth = authorizationServer(new URL(request.url).origin).getOAuthApi(env);
    const authRequest = await oauth.parseAuthRequest(request);
    const details = await oauth.describeConsent(authRequest);
    const consent = await oauth.beginConsent(authRequest);
    return page(consentForm(details, consent.handle, request.url), 200, consent.headers);
  });
}

export async function submitConsent(request: IRequest, env: Env): Promise<Response> {
  return answerErrors(async () => {
    const oauth = authorizationServer(new URL(request.url).origin).getOAuthApi(env);
    // Anything but a form (no content type, a JSON body, junk) is a bad request, not a crash.
    const form = await request.formData().catch(() => null);
    if (!form) return page(html`<h1>Cannot authorize</h1><p>The form could not be read. Start again from your app.</p>`, 400);
    const handle = textField(form, 'handle');
    if (form.get('decision') !== 'approve') {
      const denied = await oauth.denyConsent(request, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    // The form posts to the authorize URL itself, so the page can be shown again with the same handle.
    const again = async (message: string, status: number) => {
      const details = await oauth.describeConsent(await oauth.parseAuthRequest(new Request(request.url)));
      return page(consentForm(details, handle, request.url, message), status);
    };
    // An operator password can be weak: guesses are counted per address, before anything is checked.
    if (!(await withinLimit(env, env.SIGN_IN_LIMITER, clientAddress(request, env)))) {
      return again(`Too many attempts from your address: try again in ${RATE_LIMIT_PERIOD_SECONDS} seconds.`, 429);
    }
    const credential = await checkCredential(env, textField(form, 'credential'));
    if (!credential) return again('That API key or password is not valid.', 401);
    const approved = await oauth.approveConsent(request, handle);
    const scope = narrow(requested(approved.request), credential.scopes);
    if (scope.length === 0) {
      const description = 'The credential has none of the scopes the client asked for';
      approved.headers.set('Location', authorizationErrorRedirect(approved.request, 'invalid_scope', description));
      return new Response(null, { status: 302, headers: approved.headers });
    }
    const { redirectTo } = await oauth.completeAuthorization({
      request: { ...approved.request, scope },
      userId: credential.props.subject,
      metadata: { credential: credential.label },
      scope,
      props: credential.props,
    });
    approved.headers.set('Location', redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  });
}

/** No scope asked for means everything the credential allows; scopes this server does not know are dropped. */
const requested = (authRequest: AuthRequest): Scope[] => (authRequest.scope.length === 0 ? ['*'] : authRequest.scope.filter(isScope));

interface Credential {
  scopes: readonly string[];
  props: GrantProps;
  label: string;
}

async function checkCredential(env: Env, presented: string): Promise<Credential | null> {
  if (presented.startsWith(KEY_PREFIX)) {
    const key = await verifyApiKey(readKeyRecord(env.API_KEYS), presented);
    return key && { scopes: key.scopes, props: { subject: keyPrincipalId(key.id), keyHash: key.hash }, label: `API key ${key.name}` };
  }
  if (!env.OPERATOR_PASSWORD || presented === '') return null;
  const [given, expected] = await Promise.all([sha256Hex(presented), sha256Hex(env.OPERATOR_PASSWORD)]);
  if (!constantTimeEqual(given, expected)) return null;
  return { scopes: ['*'], props: { subject: 'operator', operatorHash: expected }, label: 'operator password' };
}

/**
 * Errors before the client and its redirect URI are validated are shown here, never redirected
 * (docs/consent-page.md of the library); afterwards they go back to the client.
 */
async function answerErrors(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) return page(html`<h1>Cannot authorize</h1><p>${error.description}</p>`, 400);
    if (error instanceof CimdFetchError) return page(html`<h1>Cannot authorize</h1><p>This app could not be verified.</p>`, 400);
    throw error;
  }
}

const pathAndQuery = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

function consentForm(details: ConsentDescription, handle: string, action: string, error?: string): Html {
  const scopes = details.scope.length === 0 ? ['everything your credential allows'] : details.scope;
  const invalid = error ? html` aria-invalid="true" aria-describedby="error"` : '';
  return html`<h1>Allow ${details.clientName} to use this MCP server?</h1>
<p>${details.clientDomain ? html`Published by <strong>${details.clientDomain}</strong>.` : 'This app registered itself: its name is not verified.'}
Access will be sent to <strong>${details.redirectHost}</strong>.</p>
${details.redirectIsLoopback && html`<p class="warn">This sends access to an app on your computer. Continue only if you just started connecting from it.</p>`}
<h2>It asks for</h2>
<ul>${scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul>
<p>It gets those your credential has; nothing more.</p>
<form method="post" action="${pathAndQuery(action)}">
  <input type="hidden" name="handle" value="${handle}">
  <label for="credential">API key (<code>n2f_…</code>) or operator password</label>
  <input id="credential" name="credential" type="password" autocomplete="current-password" required${invalid}>
  ${error && html`<p id="error" class="error" role="alert">${error}</p>`}
  <p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`;
}

const STYLE = html`<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;font-weight:600;margin-top:1rem}input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1.25rem;margin-top:1rem}.error{color:#a00000}.warn{background:#fff4d6;padding:.5rem}</style>`;

function page(body: Html, status: number, headers?: Headers): Response {
  // No scripts at all; framing is forbidden (beginConsent's headers say so too).
  const csp = "default-src 'none'; style-src 'unsafe-inline'";
  return htmlResponse({ title: 'Authorize — n8n MCP', body: html`<main>${body}</main>`, head: STYLE, csp, status, headers });
}

/** A text field of the consent form; a file sent in its place counts as empty. */
function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
