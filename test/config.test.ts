import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import { idleTtlMs, SERVER_NAME, SERVER_VERSION } from '../src/config';

describe('config', () => {
  it('names the server as package.json does', () => {
    expect([SERVER_NAME, SERVER_VERSION]).toEqual([pkg.name, pkg.version]);
  });

  it('closes idle sessions after SESSION_IDLE_TTL_SECONDS, or an hour when it is unset or no positive number', () => {
    expect(idleTtlMs({ ...env, SESSION_IDLE_TTL_SECONDS: '90' })).toBe(90_000);
    for (const value of [undefined, '', '0', '-5', 'soon', 'Infinity']) {
      expect(idleTtlMs({ ...env, SESSION_IDLE_TTL_SECONDS: value }), String(value)).toBe(3_600_000);
    }
  });
});
