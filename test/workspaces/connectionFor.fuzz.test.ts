import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Env } from '../../src/env';
import { ToolError } from '../../src/lib/errors';
import { connectionFor } from '../../src/workspaces/connectionFor';
import { saveConnection } from '../../src/workspaces/connections';
import { keyRing } from '../../src/workspaces/secretBox';
import { newWorkspace, putWorkspace } from '../../src/workspaces/workspaces';
import { clippedReport, RUNS } from '../support/fuzz';
import { hostileString } from '../support/hostileInputs';
import { createKey } from '../support/keys';
import { modernCallWith } from '../support/modern';

const n8nKey = inject('n8nKey');
const CONNECTION_KEYS = `k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
const vars = { CONNECTION_KEYS } as Partial<Env>;
const workspace = newWorkspace('fuzzed');
let key = '';

beforeAll(async () => {
  await putWorkspace(env.API_KEYS, workspace);
  const ring = await keyRing(CONNECTION_KEYS);
  await saveConnection(
    env.API_KEYS,
    ring,
    { workspace: workspace.id, name: 'main', url: inject('n8nUrl'), apiKey: n8nKey },
    { serverOnLoopback: true, allowPrivateNetworks: false },
  );
  key = (await createKey(['*'], { workspace: workspace.id })).key;
});

/** What a caller may put where a connection or workspace name goes. */
const name = fc.oneof(
  fc.constantFrom('main', 'default', 'MAIN', 'main ', '../main', 'main:x', '', 'constructor', '__proto__'),
  fc.stringMatching(/^[a-z0-9_-]{1,45}$/),
  hostileString,
  fc.string(),
);

describe('which connection a caller names, on any input', () => {
  it('is its own connection or a ToolError naming the fix, never another workspace’s and never a fault', async () => {
    const toolEnv = { ...env, ...vars } as Env;
    const details = await fc.check(
      fc.asyncProperty(name, fc.oneof(fc.constant(workspace.id), fc.stringMatching(/^[0-9a-f]{12}$/), hostileString), async (instance, id) => {
        try {
          const connection = await connectionFor(toolEnv, { id: 'key_f', subject: 'key_f', scopes: ['*'], workspace: id }, instance);
          return id === workspace.id && connection.instance?.workspace === workspace.id && connection.instance.name === instance;
        } catch (error) {
          return error instanceof ToolError && !error.message.includes(n8nKey);
        }
      }),
      { numRuns: RUNS },
    );
    clippedReport(details);
    expect(details.failed).toBe(false);
  });

  it('through the Worker: every tools/call with any `instance` is answered (no 5xx), and never with the n8n key', async () => {
    const details = await fc.check(
      fc.asyncProperty(fc.oneof(name, fc.jsonValue({ maxDepth: 2 })), async (instance) => {
        const { status, text } = await modernCallWith(vars, key, 'list_tags', { instance });
        return status < 500 && !text.includes(n8nKey);
      }),
      { numRuns: Math.min(RUNS, 300) },
    );
    clippedReport(details);
    expect(details.failed).toBe(false);
  });
});
