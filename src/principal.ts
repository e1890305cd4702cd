/**
 * Who is calling, as the Worker established it on this request. Sessions are bound to `id`; rate
 * limits count per `subject`. Plain data: it travels to the session object over RPC.
 */
export interface Principal {
  /** The credential: `key_<key id>` for an API key, `grant_<grant id>` for an OAuth grant, `anonymous`. */
  id: string;
  /**
   * The identity behind it: `key_<key id>` for an API key and for a grant approved with one, `operator`
   * for a grant approved with the operator password, `ip_<address>` when anonymous.
   */
  subject: string;
  scopes: readonly string[];
  /**
   * The workspace whose n8n connections the credential acts on (src/workspaces/); absent for the
   * deployment's own, whose one connection is N8N_API_URL / N8N_API_KEY.
   */
  workspace?: string;
}

/**
 * The id and subject of an API key. `_`, not `:`: a grant approved with the key keeps this as its
 * OAuth user id (in its stored props, for the grant's life), and the library's tokens are
 * `<user id>:<grant id>:<secret>`, so a `:` in it would break every token of the grant.
 */
export const keyPrincipalId = (keyId: string): string => `key_${keyId}`;
