import { describe, expect, it } from 'vitest';
import { codeIn, expressionParts, looksLikeExpression, referencedNodes, renameReferences, strings } from '../../src/workflows/expressions';
import { MAX_PATH } from '../../src/workflows/findings';

describe('expressions', () => {
  it('tells a plain "{{ $json… }}" from text, in one pass however many "{{" and "$json" a text holds', () => {
    expect(looksLikeExpression('Hi {{ $json.name }}')).toBe(true);
    expect(looksLikeExpression('={{ $json.name }}')).toBe(false);
    expect(looksLikeExpression('{{ name }} and $json')).toBe(false);
    expect(looksLikeExpression('{{ $json } }')).toBe(false);
    // Each "{{" could be tried against each "$json" after it: what took minutes on 30 KB.
    const flood = '{{ $json '.repeat(20_000);
    expect(looksLikeExpression(flood)).toBe(false);
    expect(looksLikeExpression(`${flood}}}`)).toBe(true);
    expect(looksLikeExpression(`${'{{ a } '.repeat(20_000)}{{ $node.x }}`)).toBe(true);
  });

  it('finds the nodes code names, and renames several in one pass', () => {
    const code = `$('A').item; $node["B"].json; $node.C; $items('D'); $('It\\'s')`;
    expect(referencedNodes(code)).toEqual(['A', 'B', 'C', 'D', "It's"]);
    const renamed = renameReferences(
      code,
      new Map([
        ['A', 'B'],
        ['B', 'A'],
        ['C', 'Two words'],
        ["It's", 'Its'],
      ]),
    );
    expect(renamed).toBe(`$('B').item; $node["A"].json; $node["Two words"]; $items('D'); $('Its')`);
    // Unclosed quotes and long runs give nothing back to try again.
    const runs = `$('${'a'.repeat(200_000)}`;
    expect(referencedNodes(runs)).toEqual([]);
    expect(referencedNodes(`${"$('x' ".repeat(50_000)}$('y')`)).toEqual(['y']);
    // Comments and the text of strings are not run; a template literal's ${…} is.
    expect(referencedNodes("// $('A')\n/* $('B') */ 'say $(\"C\")'; `$('D') ${$(`E`).item}`; $('F')")).toEqual(['E', 'F']);
    expect(referencedNodes(`${'`${'.repeat(50_000)}${"'".repeat(50_000)}${'/*'.repeat(50_000)}$('G')`)).toEqual([]);
    expect(expressionParts(`={{ ${'a'.repeat(100_000)}`)).toEqual({ code: [], unclosed: true });
  });

  it("reads a query's {{ … }} as code (SQL nodes resolve them), a JavaScript parameter's as text", () => {
    const refs = (value: string, parameter: string | null) => codeIn(value, parameter).flatMap(referencedNodes);
    const sql = "UPDATE t SET words = '{{ $('Webhook').item.json.body.text.replace(/'/g, \"''\") }}' -- $('Not code')";
    expect(refs(sql, 'query')).toEqual(['Webhook']);
    expect(refs("const prompt = 'Use {{ $(\"Text\").item.json.x }}'; return $('Live').all();", 'jsCode')).toEqual(['Live']);
    expect(refs("={{ $('Expr').item.json.x }}", null)).toEqual(['Expr']);
    expect(refs("{{ $('Plain').item.json.x }}", null)).toEqual([]);
  });

  it('walks every string of a parameter tree in order, at any depth, with its path and parameter', () => {
    const tree = { a: 'one', b: [{ c: 'two' }, 'three'], d: { e: { f: 'four' } }, g: 5 };
    expect([...strings(tree, 'parameters')].map((s) => [s.path, s.top, s.value])).toEqual([
      ['parameters.a', 'a', 'one'],
      ['parameters.b[0].c', 'b', 'two'],
      ['parameters.b[1]', 'b', 'three'],
      ['parameters.d.e.f', 'd', 'four'],
    ]);
    for (const s of strings(tree, 'parameters')) s.set(s.value.toUpperCase());
    expect(tree).toEqual({ a: 'ONE', b: [{ c: 'TWO' }, 'THREE'], d: { e: { f: 'FOUR' } }, g: 5 });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50_000; i++) deep = { [`level${i}`]: deep };
    const [found] = [...strings(deep, 'parameters')];
    expect(found!.value).toBe('bottom');
    expect(found!.top).toBe('level49999');
    expect(found!.path.length).toBeLessThan(MAX_PATH + 20);
  });
});
