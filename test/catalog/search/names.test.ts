import { describe, expect, it } from 'vitest';
import { nodeName, packageWords } from '../../../src/catalog/search/names';

describe('nodeName', () => {
  it('keeps the words that tell a node apart, without "Trigger" or version numbers', () => {
    expect(nodeName('Slack Trigger')).toEqual({ words: ['slack'], forms: [] });
    expect(nodeName('Microsoft Excel 365').words).toEqual(['microsoft', 'excel']);
    expect(nodeName('Edit Fields (Set)').words).toEqual(['edit', 'fields', 'set']);
  });

  it('writes multi-word names the short ways people type them', () => {
    expect(nodeName('Google Sheets').forms).toEqual(['googlesheets', 'gs', 'gsheets']);
    expect(nodeName('Microsoft SQL').forms).toContain('mssql');
    expect(nodeName('Google Cloud Storage').forms).toContain('gcs');
    // Two initials alone would be noise ("hr"), unless the first word is a vendor's.
    expect(nodeName('HTTP Request').forms).toEqual(['httprequest']);
  });
});

describe('packageWords', () => {
  it("keeps a package's scope and name words, not the n8n-nodes prefix", () => {
    expect(packageWords('@brave/n8n-nodes-brave-search')).toEqual(['brave', 'brave', 'search']);
    expect(packageWords('n8n-nodes-community-hashkit')).toEqual(['hashkit']);
  });
});
