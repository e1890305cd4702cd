import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { configTable, envMembers, purpose, readmeTables, replaceTables, toolsTable, type WranglerBindings } from '../../scripts/docs/readmeTables';
import type { ToolDefinition } from '../../src/tools/tool';
import { toolsFor } from '../../src/server/registry';
import type { Env } from '../../src/env';

// test_workflow and try_nodes import waitUntil from the Workers runtime (runWithCleanUp), which Node lacks; listing tools never calls it.
vi.mock('cloudflare:workers', () => ({ waitUntil: () => {} }));

const between = (text: string, name: string) => text.slice(text.indexOf(`<!-- ${name}:start -->`), text.indexOf(`<!-- ${name}:end -->`));

describe('README.md', () => {
  const readme = readFileSync('README.md', 'utf8');

  it.each(['tools', 'config'])('its %s table is what npm run docs:readme makes (run it when this fails)', (name) => {
    expect(between(readme, name)).toBe(between(replaceTables(readme, readmeTables()), name));
  });

  it('lists every tool a deployment with an n8n serves, once', () => {
    const tools = toolsFor({ N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'key' } as Env);
    const listed = [...between(readme, 'tools').matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(tools.map((tool) => tool.name));
  });

  it('stays within about 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(320);
  });
});

describe('replaceTables', () => {
  const readme = 'intro\n<!-- t:start -->\nold\n<!-- t:end -->\nafter\n';

  it('replaces what stands between the markers and nothing else', () => {
    expect(replaceTables(readme, { t: '| a |' })).toBe('intro\n<!-- t:start -->\n| a |\n<!-- t:end -->\nafter\n');
  });

  it('refuses a README whose markers are missing, doubled or out of order', () => {
    expect(() => replaceTables('intro\n', { t: 'x' })).toThrow('<!-- t:start --> and <!-- t:end --> are missing');
    expect(() => replaceTables(readme + '<!-- t:start -->\n', { t: 'x' })).toThrow('occurs twice');
    expect(() => replaceTables('<!-- t:end -->\n<!-- t:start -->\n', { t: 'x' })).toThrow('comes before');
  });
});

describe('purpose', () => {
  it('is the first sentence, up to a colon that opens a list', () => {
    expect(purpose('Get one workflow whole: nodes, connections, settings. More.')).toBe('Get one workflow whole');
    expect(purpose('Delete a tag; it is removed from every workflow. Then more.')).toBe('Delete a tag; it is removed from every workflow');
    expect(purpose('No full stop at all')).toBe('No full stop at all');
  });

  it('is not ended by a full stop or colon inside brackets, nor by one inside a word', () => {
    expect(purpose('Search nodes (e.g. "send email", "v1.2"). Next.')).toBe('Search nodes (e.g. "send email", "v1.2")');
    expect(purpose('List types as {TYPE: [subtypes]}, filtered. Next.')).toBe('List types as {TYPE: [subtypes]}, filtered');
    expect(purpose('Available as $vars.<key> in expressions.')).toBe('Available as $vars.<key> in expressions');
  });
});

describe('toolsTable', () => {
  const tool = (name: string, extra: Partial<ToolDefinition>) =>
    ({ name, description: `Does ${name}. Details.`, execution: 'direct', ...extra }) as ToolDefinition;

  it('says per tool whether it needs an n8n, its scopes, how it runs, whether the view draws it and what it does; a | in a description stays in its cell', () => {
    const table = toolsTable(
      [
        tool('a', {}),
        tool('b', { scope: 'workflows:write', alsoNeeds: ['executions:read'], execution: 'queued', view: true, description: 'Pick "true"|"false". More.' }),
      ],
      new Set(['a']),
    );
    expect(table.split('\n')).toEqual([
      '| tool | served | scope | runs | view | what it does |',
      '| --- | --- | --- | --- | --- | --- |',
      '| `a` | always | any credential | direct |  | Does a |',
      '| `b` | with n8n | `workflows:write` + `executions:read` | queued | drawn | Pick "true"\\|"false" |',
    ]);
  });
});

describe('configTable', () => {
  const source = `
    export interface Env {
      SESSIONS: DurableObjectNamespace<SessionObject>;
      /** The catalog. */
      SPECS: KVNamespace;
      /** Where the n8n is (secret). */
      N8N_API_URL?: string;
      N8N_API_KEY?: string;
      /** Idle time,
       * in seconds. */
      IDLE?: string;
      /** Not set anywhere. */
      MODE?: string;
      /** Requests per caller. */
      LIMITER?: RateLimit;
      /** Missing from wrangler.toml. */
      ORPHAN?: Fetcher;
    }`;
  const config: WranglerBindings = {
    vars: { IDLE: '3600' },
    durable_objects: { bindings: [{ name: 'SESSIONS', class_name: 'SessionObject' }] },
    kv_namespaces: [{ binding: 'SPECS' }],
    queues: {},
    ratelimits: [{ name: 'LIMITER', simple: { limit: 600, period: 60 } }],
    analytics_engine_datasets: [],
  };

  it('gives an undocumented string the comment of the string before it', () => {
    expect(envMembers(source).map((m) => m.names)).toEqual([
      ['SESSIONS'],
      ['SPECS'],
      ['N8N_API_URL', 'N8N_API_KEY'],
      ['IDLE'],
      ['MODE'],
      ['LIMITER'],
      ['ORPHAN'],
    ]);
  });

  it('lists variables, then secrets, then bindings, with what wrangler.toml sets each to', () => {
    expect(configTable(source, config).split('\n').slice(2)).toEqual([
      '| `IDLE` | variable | `"3600"` | Idle time, in seconds. |',
      '| `MODE` | variable | unset | Not set anywhere. |',
      '| `N8N_API_URL`, `N8N_API_KEY` | secret | — | Where the n8n is (secret). |',
      '| `SESSIONS` | Durable Object | class `SessionObject` | — |',
      '| `SPECS` | KV namespace | provisioned on first deploy | The catalog. |',
      '| `LIMITER` | rate limit | 600 per 60 s | Requests per caller. |',
      '| `ORPHAN` | binding | not in wrangler.toml | Missing from wrangler.toml. |',
    ]);
  });

  it('refuses a source without interface Env', () => {
    expect(() => envMembers('export type X = 1;')).toThrow('no interface Env');
  });
});

/** The project's Markdown: what a link or a path in it may point to. */
const DOCS = [
  'README.md',
  'CHANGELOG.md',
  'bench/RESULTS.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Paths that are named in the docs but belong to another repository. */
const ELSEWHERE = new Set(['docs/_workflows']);

const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

describe.each(DOCS)('%s', (file) => {
  const text = withoutCode(readFileSync(file, 'utf8'));

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path ? normalize(join(dirname(file), path)) : file;
      if (!existsSync(resolved)) broken.push(target!);
      else if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it('names only paths that exist in this repository (or that git ignores: outputs)', () => {
    const named = [...text.matchAll(/(?<![\w/.-])(?:src|test|scripts|bench|docs|specs|public|\.ci)\/[\w./@+-]*\w/g)].map((m) => m[0]);
    // Placeholders (bench/references/NAME) and globs stand for many paths.
    const missing = [...new Set(named)].filter((path) => !existsSync(path) && !/\/[A-Z]+(\/|$)|[*{]/.test(path) && !ELSEWHERE.has(path));
    // git check-ignore prints the ignored ones (and exits 1 when there are none).
    // A folder only matches a pattern like `bench/results/` with its slash, and a missing path cannot say it is one.
    const asked = missing.flatMap((path) => [path, `${path}/`]);
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { input: asked.join('\n'), encoding: 'utf8' }).stdout.split('\n');
    expect(missing.filter((path) => !ignored.includes(path) && !ignored.includes(`${path}/`))).toEqual([]);
  });
});
