import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NAME, SERVER_VERSION } from '../../src/config';

describe('the server’s name and version', () => {
  it('are package.json’s (a release bumps both)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect({ name: SERVER_NAME, version: SERVER_VERSION }).toEqual({ name: pkg.name, version: pkg.version });
  });
});
