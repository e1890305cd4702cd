import { describe, expect, it } from 'vitest';
import { fromN8nIo, licensingOf, SOURCES, type History, type SourceWorkflow, type TemplateSource } from '../../../../scripts/catalog/templates/sources';

const IMPORT = '84c802cb50fe178fbbe9ec4896429c54b6905d6e';
const source = (repo: string) => SOURCES.find((s) => s.repo === repo)!;
const workflow = (doc: Record<string, unknown>, commit = 'later', path = 'workflows/x.json'): SourceWorkflow => ({
  path,
  doc: { nodes: [], connections: {}, ...doc },
  origin: { commit, author: 'someone', date: '2025-07-01', path },
});
const history = (names: (commit: string) => string[] = () => [], has: (commit: string, path: string) => boolean = () => true): History => ({
  names: (commit) => new Set(names(commit)),
  has,
});
const link = { nodes: [{ parameters: { content: 'From https://n8n.io/workflows/1234-x' } }] };

describe('which workflows may be shared', () => {
  it("knows the signs of n8n.io's template library, and that n8n marks any workflow whose credentials are all set", () => {
    expect(fromN8nIo({ meta: { templateId: '1234' } })).toMatch(/templateId/);
    expect(fromN8nIo(link)).toMatch(/link to an n8n.io template/);
    // The editor sets it on any workflow once every node has its credentials: not a sign of the library.
    expect(fromN8nIo({ meta: { templateCredsSetupCompleted: true, instanceId: 'abc' } })).toBeNull();
    expect(fromN8nIo({ meta: { instanceId: 'abc' }, nodes: [{ parameters: { content: 'See https://docs.n8n.io/' } }] })).toBeNull();
  });

  it('shares nothing of a repository without a licence', () => {
    const none: TemplateSource = { repo: 'a/b', licence: null, terms: '' };
    expect(licensingOf(none, workflow({}), history())).toEqual({ shared: false, reason: 'no licence' });
  });

  it("leaves out what came from n8n.io's library, unless n8n itself shares it", () => {
    const mit: TemplateSource = { repo: 'a/b', licence: 'MIT', terms: '' };
    const fromLibrary = workflow({ meta: { templateId: '7' } });
    expect(licensingOf(mit, fromLibrary, history())).toMatchObject({ shared: false, reason: expect.stringMatching(/^from n8n.io's template library/) });
    expect(licensingOf({ ...mit, byN8n: true }, fromLibrary, history())).toEqual({ shared: true });
    expect(licensingOf(mit, workflow({}), history())).toEqual({ shared: true });
  });

  it('reads links to n8n.io as a copy, unless the authors link to their own pages there; their templateId still is one', () => {
    const vendor: TemplateSource = { repo: 'a/b', licence: 'MIT', terms: '', linksToOwnN8nIoPages: true };
    expect(licensingOf({ ...vendor, linksToOwnN8nIoPages: false }, workflow(link), history())).toMatchObject({ shared: false });
    expect(licensingOf(vendor, workflow(link), history())).toEqual({ shared: true });
    expect(licensingOf(vendor, workflow({ ...link, meta: { templateId: '9' } }), history())).toMatchObject({ shared: false });
  });

  it("leaves out Zie619's imported collection and copies of it, and shares what contributors added since", () => {
    const zie619 = source('Zie619/n8n-workflows');
    expect(licensingOf(zie619, workflow({ name: 'Imported' }, IMPORT), history())).toMatchObject({ shared: false });
    const names = history((commit) => (commit === IMPORT ? ['Imported'] : []));
    expect(licensingOf(zie619, workflow({ name: 'Imported' }), names)).toMatchObject({ shared: false, reason: expect.stringMatching(/copy/) });
    expect(licensingOf(zie619, workflow({ name: 'My own' }), names)).toEqual({ shared: true });
  });

  it('shares of enescingoz/awesome-n8n-templates only what was added once it had a licence', () => {
    const awesome = source('enescingoz/awesome-n8n-templates');
    const licensedFrom = history(undefined, (commit, path) => path === 'LICENSE' && commit === 'after');
    expect(licensingOf(awesome, workflow({}, 'before'), licensedFrom)).toMatchObject({
      shared: false,
      reason: expect.stringMatching(/before the repository had a licence/),
    });
    expect(licensingOf(awesome, workflow({}, 'after'), licensedFrom)).toEqual({ shared: true });
  });

  it('records for each collection an SPDX licence of an open kind, or none, and what the decision rests on', () => {
    expect(new Set(SOURCES.map((s) => s.repo)).size).toBe(SOURCES.length);
    for (const { repo, terms, licence } of SOURCES) {
      expect(terms.length, repo).toBeGreaterThan(20);
      expect([null, 'MIT', 'Apache-2.0', 'CC-BY-4.0', 'CC0-1.0'], repo).toContain(licence);
    }
  });
});
