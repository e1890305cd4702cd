import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/principal';
import { authInfoOf, principalIn, requestPrincipal } from '../../src/server/caller';

const principal: Principal = { id: 'key_abc', subject: 'key_abc', scopes: ['nodes:read', 'workflows:read'] };

describe('the caller as the SDK’s auth info', () => {
  it('carries the principal whole, and gives the SDK its id as the client id and its scopes', () => {
    const info = authInfoOf(principal);
    expect(info).toMatchObject({ clientId: 'key_abc', scopes: ['nodes:read', 'workflows:read'] });
    expect(principalIn(info)).toEqual(principal);
    // The SDK's copy of the scopes is its own: nothing it does to them reaches the principal.
    (info.scopes as string[]).push('*');
    expect(principal.scopes).toEqual(['nodes:read', 'workflows:read']);
  });

  it('reads the caller of the request a handler serves from its context (ctx.http.authInfo)', () => {
    expect(requestPrincipal({ http: { authInfo: authInfoOf(principal) } })).toEqual(principal);
  });

  it('refuses to go on without one, rather than serve a request as nobody', () => {
    const noCaller = /^no caller: a request reached the MCP server without the auth info the Worker gives it$/;
    expect(() => principalIn(undefined)).toThrow(noCaller);
    expect(() => principalIn({ token: 't', clientId: 'c', scopes: [] })).toThrow(noCaller);
    expect(() => requestPrincipal({})).toThrow(noCaller);
  });
});
