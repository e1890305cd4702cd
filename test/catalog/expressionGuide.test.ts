import { describe, expect, it } from 'vitest';
import { EXPRESSION_GUIDE_URI, expressionGuide, timeZoneSection } from '../../src/catalog/expressionGuide';
import { expressionParts, looksLikeExpression, referencedNodes } from '../../src/workflows/expressions';

const EXPRESSION_GUIDE = expressionGuide(timeZoneSection({ instance: true }));

/** The parameter values the guide shows (`"=…"` in backticks). */
const examples = [...EXPRESSION_GUIDE.matchAll(/`"(=[^`]*)"`/g)].map((m) => m[1]!);

describe('the expression guide agrees with how the validator reads expressions', () => {
  it('shows parameter values whose every {{ is closed, as validate_workflow reads them', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
    // An arrow function and an IIFE with statements are among them: the syntax n8n takes inside {{ }}.
    expect(examples).toContain('={{ $json.body.items.map(i => i.price * i.qty).reduce((a, b) => a + b, 0) }}');
    expect(examples.some((e) => e.includes('(() => { const'))).toBe(true);
    for (const example of examples) {
      const { code, unclosed } = expressionParts(example);
      expect(unclosed, example).toBe(false);
      expect(code.length, example).toBeGreaterThan(0);
    }
  });

  it('teaches the ways of naming a node that the reference check follows', () => {
    for (const form of ["$('Node name').item.json.field", '$node["Node name"].json.field', '$items("Node name")[0].json']) {
      expect(EXPRESSION_GUIDE).toContain(form);
      expect(referencedNodes(form), form).toEqual(['Node name']);
    }
  });

  it('says a value without "=" is plain text, which validate_workflow warns about', () => {
    expect(EXPRESSION_GUIDE).toMatch(/Without the `=`, `\{\{ … \}\}` is plain text/);
    expect(looksLikeExpression(examples[0]!.slice(1))).toBe(true);
  });

  it('is served under the URI the tool descriptions point to', () => {
    expect(EXPRESSION_GUIDE_URI).toBe('n8n-guide://expressions');
  });
});

describe('the time zone the guide tells', () => {
  const section = (facts: Parameters<typeof timeZoneSection>[0]) => timeZoneSection(facts);

  it('is placed in the guide, which no longer claims a zone for every instance', () => {
    const guide = expressionGuide('ZONE SECTION');
    expect(guide).toContain('## Time zone\nZONE SECTION\n');
    expect(guide).not.toMatch(/America\/New_York unless set/);
  });

  it('says what decides the zone, what is known of it here, and how to pin it', () => {
    const none = section({ instance: false });
    expect(none).toMatch(/^- A workflow runs in the time zone of its setting `timezone`/);
    expect(none).toContain('No n8n is configured on this server');
    expect(none).toMatch(/pin it: settings\.timezone in create_workflow/);
    const unknown = section({ instance: true });
    expect(unknown).toContain("n8n's public API does not show it");
    expect(unknown).not.toContain('No n8n is configured');
  });

  it('names the zone of a workflow asked about, or says it sets none', () => {
    expect(section({ instance: true, workflow: { id: 'w1', name: 'Orders', timezone: 'Asia/Tokyo' } })).toContain(
      '- Workflow "Orders" (w1) runs in Asia/Tokyo: its settings.timezone.',
    );
    expect(section({ instance: true, workflow: { id: 'w2', name: 'Plain' } })).toContain(
      '- Workflow "Plain" (w2) sets no time zone: it runs in its n8n\'s default, unknown here.',
    );
  });
});
