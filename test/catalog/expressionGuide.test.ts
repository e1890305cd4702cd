import { describe, expect, it } from 'vitest';
import { EXPRESSION_GUIDE, EXPRESSION_GUIDE_URI } from '../../src/catalog/expressionGuide';
import { expressionParts, looksLikeExpression, referencedNodes } from '../../src/workflows/expressions';

/** The parameter values the guide shows (`"=…"` in backticks). */
const examples = [...EXPRESSION_GUIDE.matchAll(/`"(=[^`]*)"`/g)].map((m) => m[1]!);

describe('the expression guide agrees with how the validator reads expressions', () => {
  it('shows parameter values whose every {{ is closed, as validate_workflow reads them', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
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
