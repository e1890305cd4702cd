import { AuthorizationError, authorizationErrorRedirect, CimdFetchError, type AuthRequest, type ConsentDescription } from '@cloudflare/workers-oauth-provider';
import type { IRequest } from 'itty-router';
import type { Env } from '../env';
import { clientAddress } from '../http/clientAddress';
import { html, htmlResponse, type Html } from '../http/html';
import { servesWorkspaces } from '../n8n/client';
import { ringOf } from '../workspaces/connectionFor';
import { urlPolicyOf } from '../workspaces/connectionUrl';
import { saveConnection } from '../workspaces/connections';
import { workspaceStands } from '../workspaces/workspaces';
import { constantTimeEqual, KEY_PREFIX, readKeyRecord, sha256Hex, verifyApiKey } from './apiKeys';
import { authorizationServer, type GrantProps } from './oauth';
import { keyPrincipalId } from '../principal';
import { RATE_LIMIT_PERIOD_SECONDS, withinLimit } from './rateLimit';
import { allows, isScope, narrow, type Scope } from './scopes';

/**
 * GET/POST /authorize: the human step of the OAuth flow. The page names the client, where the tokens
 * will go and the scopes asked for, and takes an API key (or the operator password, when the
 * operator set OPERATOR_PASSWORD). The grant gets the scopes asked for that the credential has.
 * Where workspaces are on (CONNECTION_KEYS), a workspace's key may also connect its n8n here: the
 * connection is tested and saved before anything is granted, and a failure shows the page again.
 */
export async function showConsent(request: IRequest, env: Env): Promise<Response> {
  return answerErrors(async () => {
    const oauth = authorizationServer(new URL(request.url).origin).getOAuthApi(env);
    const authRequest = await oauth.parseAuthRequest(request);
    const details = await oauth.describeConsent(authRequest);
    const consent = await oauth.beginConsent(authRequest);
    return page(consentForm(details, consent.handle, request.url, { n8nFields: servesWorkspaces(env) }), 200, consent.headers);
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
    const n8n = { name: textField(form, 'n8n_name').trim() || DEFAULT_CONNECTION, url: textField(form, 'n8n_url').trim(), apiKey: textField(form, 'n8n_key') };
    // The form posts to the authorize URL itself, so the page can be shown again with the same handle;
    // what was typed is kept, except the n8n API key.
    const again = async (message: string, status: number, about: ErrorAbout = 'credential') => {
      const details = await oauth.describeConsent(await oauth.parseAuthRequest(new Request(request.url)));
      const shown = { n8nFields: servesWorkspaces(env), error: { message, about }, n8n: { name: n8n.name, url: n8n.url } };
      return page(consentForm(details, handle, request.url, shown), status);
    };
    // An operator password can be weak: guesses are counted per address, before anything is checked.
    if (!(await withinLimit(env, env.SIGN_IN_LIMITER, clientAddress(request, env)))) {
      return again(`Too many attempts from your address: try again in ${RATE_LIMIT_PERIOD_SECONDS} seconds.`, 429);
    }
    const credential = await checkCredential(env, textField(form, 'credential'));
    if (!credential) return again('That API key or password is not valid.', 401);
    // Nothing is granted unless the n8n given (if any) was saved.
    if (n8n.url !== '' || n8n.apiKey.trim() !== '') {
      const refused = await connectN8n(env, request.url, credential, n8n);
      if (refused) return again(refused.message, refused.status, 'n8n');
    }
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
  /** The API key's workspace; absent for a key of the deployment's own n8n and for the operator password. */
  workspace?: string;
}

/** The connection name the form suggests. */
const DEFAULT_CONNECTION = 'main';

/**
 * Saves the n8n connection the form gives for the credential's workspace, once the credential may
 * (a workspace's key with instances:write); why not, with the status to show the page again with,
 * or null once saved. The n8n key is never in what it answers.
 */
async function connectN8n(
  env: Env,
  serverUrl: string,
  credential: Credential,
  n8n: { name: string; url: string; apiKey: string },
): Promise<{ message: string; status: number } | null> {
  if (!servesWorkspaces(env))
    return { message: 'This server keeps no n8n connections (its operator has not turned workspaces on): leave the n8n fields empty.', status: 409 };
  if (n8n.url === '') return { message: 'Give your n8n’s URL with its API key, or leave both empty to connect it later.', status: 400 };
  if (credential.props.operatorHash)
    return {
      message:
        'The operator password belongs to no workspace, so it connects no n8n: leave the n8n fields empty (this server’s own n8n is set by its N8N_API_URL and N8N_API_KEY secrets), or use an API key of your workspace.',
      status: 400,
    };
  if (credential.workspace === undefined)
    return {
      message:
        'This API key belongs to no workspace: it acts on this server’s own n8n, which its operator sets. Leave the n8n fields empty, or use an API key of your workspace.',
      status: 400,
    };
  if (!allows(credential.scopes, 'instances:write'))
    return {
      message: 'This API key lacks the instances:write scope that connecting an n8n needs: leave the n8n fields empty, or use a key that has it.',
      status: 403,
    };
  const result = await saveConnection(env.API_KEYS, await ringOf(env), { workspace: credential.workspace, ...n8n }, urlPolicyOf(env, serverUrl));
  if ('problem' in result) return { message: `Your n8n was not connected: ${result.problem}.`, status: 422 };
  return null;
}

async function checkCredential(env: Env, presented: string): Promise<Credential | null> {
  if (presented.startsWith(KEY_PREFIX)) {
    const key = await verifyApiKey(readKeyRecord(env.API_KEYS), presented);
    // A key of a removed workspace is no credential: it would get a grant that no token request honours.
    if (!key || !(await workspaceStands(env, key))) return null;
    return {
      scopes: key.scopes,
      props: { subject: keyPrincipalId(key.id), keyHash: key.hash },
      label: `API key ${key.name}`,
      ...(key.workspace ? { workspace: key.workspace } : {}),
    };
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

/** What a consent error is about: the field it is tied to. */
type ErrorAbout = 'credential' | 'n8n';

interface FormState {
  /** Whether to offer the "Connect your n8n" fields (workspaces are on). */
  n8nFields: boolean;
  error?: { message: string; about: ErrorAbout };
  /** What was typed in them, shown again; never the n8n API key. */
  n8n?: { name: string; url: string };
}

function consentForm(details: ConsentDescription, handle: string, action: string, state: FormState): Html {
  const scopes = details.scope.length === 0 ? ['everything your credential allows'] : details.scope;
  const { error } = state;
  const invalidAt = (about: ErrorAbout) => (error?.about === about ? html` aria-invalid="true" aria-describedby="error"` : '');
  const errorAt = (about: ErrorAbout) => error?.about === about && html`<p id="error" class="error" role="alert">${error.message}</p>`;
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
  <input id="credential" name="credential" type="password" autocomplete="current-password" required${invalidAt('credential')}>
  ${errorAt('credential')}
  ${state.n8nFields && n8nFieldset(state, invalidAt('n8n'), errorAt('n8n'))}
  <p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`;
}

/** The optional "Connect your n8n" fields; the n8n key's field always empty. */
function n8nFieldset(state: FormState, invalid: Html | '', error: Html | false): Html {
  return html`<fieldset>
  <legend>Connect your n8n (optional)</legend>
  <p class="hint">With an API key of your workspace that has the <code>instances:write</code> scope. The connection is tested before anything is allowed. Leave these empty if your workspace has its n8n already, or to add it later on this server’s home page.</p>
  <label for="n8n_name">Connection name</label>
  <input id="n8n_name" name="n8n_name" type="text" value="${state.n8n?.name ?? DEFAULT_CONNECTION}" autocomplete="off" spellcheck="false" maxlength="40">
  <label for="n8n_url">n8n URL</label>
  <input id="n8n_url" name="n8n_url" type="url" value="${state.n8n?.url ?? ''}" placeholder="https://n8n.example.com" autocomplete="off" spellcheck="false"${invalid}>
  <label for="n8n_key">n8n API key <span class="hint">(n8n: Settings → n8n API)</span></label>
  <input id="n8n_key" name="n8n_key" type="password" autocomplete="off" spellcheck="false">
  ${error}
</fieldset>`;
}

const STYLE = html`<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;font-weight:600;margin-top:1rem}input:not([type=hidden]){width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1.25rem;margin-top:1rem}.error{color:#a00000}.warn{background:#fff4d6;padding:.5rem}
fieldset{margin-top:1.5rem;border:1px solid #9ca3af;border-radius:.375rem}legend{font-weight:600;padding:0 .25rem}.hint{color:#374151;font-weight:400}</style>`;

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
