import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readCollected, templatesFor } from '../../../../scripts/catalog/templates/read';
import { n8nSpecs } from '../../../support/n8nCatalog';
import { FIXTURE_TEMPLATES, WEBHOOK_RELAY } from '../../../templates/templateFixtures';

const dir = mkdtempSync(join(tmpdir(), 'templates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the committed templates, as the catalog build reads them', () => {
  it('are none before they were ever collected', () => {
    expect(readCollected(join(dir, 'missing.json'))).toEqual([]);
  });

  it('are read gzipped, as collect.ts writes them, or plain', () => {
    const body = JSON.stringify({ about: 'x', sources: [], templates: FIXTURE_TEMPLATES });
    writeFileSync(join(dir, 'templates.json.gz'), gzipSync(body));
    writeFileSync(join(dir, 'plain.json'), body);
    expect(readCollected(join(dir, 'templates.json.gz'))).toEqual(FIXTURE_TEMPLATES);
    expect(readCollected(join(dir, 'plain.json'))).toEqual(FIXTURE_TEMPLATES);
  });

  it('come each with the sure fixes made and what validate_workflow finds in what is served, against the specs being built', () => {
    const file = join(dir, 'templates.json');
    writeFileSync(file, JSON.stringify({ about: 'x', sources: [], templates: FIXTURE_TEMPLATES }));
    const validated = templatesFor(n8nSpecs, file);
    expect(validated.map((t) => t.id)).toEqual(FIXTURE_TEMPLATES.map((t) => t.id));
    const relay = validated.find((t) => t.id === WEBHOOK_RELAY.id)!;
    expect(relay).toMatchObject({ validation: { valid: false, errors: 1 }, fixes: [{ kind: 'type_version', node: 'Forward' }] });
    expect(validated[0]!.fixes).toEqual([]);
    // Against specs that lack its nodes, the same template's nodes are unknown.
    expect(validated[0]!.validation.valid).toBe(true);
    expect(templatesFor([], file)[0]!.validation).toMatchObject({ valid: false, first: [expect.stringMatching(/Unknown node type/), expect.any(String)] });
  });
});
