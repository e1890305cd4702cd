import { env } from 'cloudflare:workers';
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/env';
import { requestStateCodec } from '../../src/server/requestState';
import { modern } from '../support/modern';

const KEY = 'a request state key of 32 bytes or more';
const withKey = (key: string | undefined): Env => ({ ...env, REQUEST_STATE_KEY: key }) as Env;
/** The parts of a handler's context the seal is bound to: the method, and the caller (its auth info's client id). */
const ctx = (method: string, clientId?: string) =>
  ({ mcpReq: { method }, ...(clientId === undefined ? {} : { http: { authInfo: { token: '', clientId, scopes: [] } } }) }) as unknown as ServerContext;

describe('the sealing of requestState', () => {
  it('is off without a REQUEST_STATE_KEY of at least 32 bytes: nothing may rely on requestState then', () => {
    expect(requestStateCodec(withKey(undefined))).toBeUndefined();
    expect(requestStateCodec(withKey(''))).toBeUndefined();
    expect(requestStateCodec(withKey('x'.repeat(31)))).toBeUndefined();
    // Bytes, not characters: eleven three-byte characters are 33 bytes.
    expect(requestStateCodec(withKey('€'.repeat(11)))).toBeDefined();
  });

  it('gives back what it sealed, to the same method and caller', async () => {
    const codec = requestStateCodec<{ round: number }>(withKey(KEY))!;
    const state = await codec.mint({ round: 2 }, ctx('tools/call', 'key_a'));
    expect(await codec.verify(state, ctx('tools/call', 'key_a'))).toEqual({ round: 2 });
  });

  it('refuses a state minted for another caller or method, altered, or sealed under another key', async () => {
    const env = withKey(KEY);
    const codec = requestStateCodec<{ round: number }>(env)!;
    const state = await codec.mint({ round: 2 }, ctx('tools/call', 'key_a'));
    await expect(codec.verify(state, ctx('tools/call', 'key_b'))).rejects.toThrow();
    await expect(codec.verify(state, ctx('tools/call'))).rejects.toThrow();
    await expect(codec.verify(state, ctx('prompts/get', 'key_a'))).rejects.toThrow();
    await expect(codec.verify(`${state.slice(0, -2)}AA`, ctx('tools/call', 'key_a'))).rejects.toThrow();
    const elsewhere = requestStateCodec<{ round: number }>(withKey(`${KEY}, another`))!;
    await expect(elsewhere.verify(state, ctx('tools/call', 'key_a'))).rejects.toThrow();
  });

  it('is one codec per deployment configuration, made once', () => {
    const env = withKey(KEY);
    expect(requestStateCodec(env)).toBe(requestStateCodec(env));
  });

  it('seals the state of a real multi-round call: the echoed state is taken, a tampered one refused (-32602)', async () => {
    const capabilities = { elicitation: {} };
    const first = await modern('tools/call', { name: 'test_input_required_result_request_state', arguments: {} }, { capabilities });
    expect(first.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    const { requestState } = first.body.result;
    const answer = { confirm: { action: 'accept', content: { ok: true } } };
    const done = await modern(
      'tools/call',
      { name: 'test_input_required_result_request_state', arguments: {}, inputResponses: answer, requestState },
      { capabilities },
    );
    expect(done.body.result.content[0].text).toContain('state-ok');
    const tampered = await modern(
      'tools/call',
      { name: 'test_input_required_result_request_state', arguments: {}, inputResponses: answer, requestState: `${requestState}x` },
      { capabilities },
    );
    expect(tampered.body.error.code).toBe(-32602);
  });
});
