import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../src/auth/authenticate';
import { keyPrincipalId } from '../src/principal';
import { bearer, createKey } from './support/keys';
import { ORIGIN } from './support/mcp';
import { tokensFor } from './support/oauth';

/** The principal the Worker makes of a request with `headers`, under the test configuration with `overrides`. */
const principalOf = (headers: Record<string, string>, overrides = {}) => authenticate(new Request(`${ORIGIN}/mcp`, { headers }), { ...env, ...overrides });

describe('principal ids (docs/access-control.md)', () => {
  it('names an API key key_<key id>, and an OAuth grant grant_<grant id> whose subject is the key it was approved with', async () => {
    const { key, record } = await createKey(['nodes:read']);
    expect(keyPrincipalId(record.id)).toBe(`key_${record.id}`);
    expect(await principalOf(bearer(key))).toEqual({ id: `key_${record.id}`, subject: `key_${record.id}`, scopes: ['nodes:read'] });
    const { access_token } = await tokensFor(key);
    // The library's token is <user id>:<grant id>:<secret>: the key's id, with no ':' in it, is the user id.
    const [userId, grantId] = access_token.split(':');
    expect(userId).toBe(`key_${record.id}`);
    expect(await principalOf(bearer(access_token))).toEqual({ id: `grant_${grantId}`, subject: `key_${record.id}`, scopes: ['nodes:read'] });
  });

  it('names a grant approved with the operator password grant_<grant id>, its subject operator', async () => {
    const { access_token } = await tokensFor(env.OPERATOR_PASSWORD!, 'nodes:read');
    const [userId, grantId] = access_token.split(':');
    expect(userId).toBe('operator');
    expect(await principalOf(bearer(access_token))).toEqual({ id: `grant_${grantId}`, subject: 'operator', scopes: ['nodes:read'] });
  });

  it('names an anonymous caller anonymous, counted per address', async () => {
    const principal = await principalOf({ 'cf-connecting-ip': '203.0.113.9' }, { ALLOW_ANONYMOUS: 'true' });
    expect(principal).toMatchObject({ id: 'anonymous', subject: expect.stringMatching(/^ip_/) });
  });
});
