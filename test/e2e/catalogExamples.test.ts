import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../scripts/lib/nodeCatalog';
import { N8N_PORT_FUNCTIONS } from '../../src/catalog/ports/n8nPortFunctions';
import { catalogOf } from '../../src/workflows/nodeCatalog';
import { validateNode } from '../../src/workflows/validateNode';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { nodePorts } from '../../src/workflows/ports';
import { newestDescriptions } from '../../src/catalog/build';
import { serializeSpec } from '../../src/catalog/serialize';
import { withDefaults } from '../../src/workflows/values';

/** The n8n part of the catalog `npm run dev` built for this run (the global set-up): every description of every node. */
const specs = loadSpecs().filter((s) => s.source === 'n8n');
const catalog = catalogOf(specs);

describe('the built catalog', () => {
  it('has every version of n8n’s nodes, the tools n8n derives, and the n8n 1.x versions n8n 2 dropped', () => {
    expect(specs.length).toBeGreaterThan(900);
    expect(catalog.describe('n8n-nodes-base.httpRequest', 1)?.type_versions).toEqual([1]);
    expect(catalog.describe('n8n-nodes-base.set', 3.4)?.node_versions).toContain(1);
    expect(catalog.describe('n8n-nodes-base.slackTool', 2.3)?.tool_of).toBe('n8n-nodes-base.slack');
    expect(catalog.describe('n8n-nodes-base.start', 1)?.legacy).toBe(true);
  });

  it('gives every description an example that validate_node finds valid', () => {
    const invalid = specs
      .flatMap((s) => s.examples.map((e) => ({ subtype: s.subtype, result: validateNode(e.output, catalog) })))
      .filter((x) => !x.result.valid)
      .map((x) => `${x.subtype}: ${x.result.errors.map((e) => e.message).join('; ')}`);
    expect(invalid).toEqual([]);
    expect(specs.every((s) => s.examples.length > 0)).toBe(true);
    // The same example at a typeVersion its node lacks is refused: the check above judged something.
    const example = specs.find((s) => s.subtype === 'n8n-nodes-base.set')!.examples[0]!.output as object;
    expect(validateNode({ ...example, typeVersion: 999 }, catalog).errors.map((e) => e.code)).toContain('invalid_type_version');
  });

  it('finds no error in the workflows a real n8n 1.123.81 saved and ran (test/fixtures/workflows)', () => {
    const dir = 'test/fixtures/workflows';
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(40);
    const errors = files.flatMap((f) =>
      validateWorkflow(JSON.parse(readFileSync(join(dir, f), 'utf8')), catalog).errors.map((e) => `${f}: ${e.node}: ${e.message}`),
    );
    expect(errors).toEqual([]);
    // One of them with a node type misspelled has an error: the check above judged something.
    const misspelled = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
    misspelled.nodes[0].type += 'x';
    expect(validateWorkflow(misspelled, catalog).errors.map((e) => e.code)).toContain('unknown_node_type');
  });

  it('names only port functions this build bundles, and computes ports from them for the node’s defaults', () => {
    let computed = 0;
    let dynamic = 0;
    for (const spec of specs.filter((s) => s.dynamic_ports)) {
      for (const id of Object.values(spec.dynamic_ports!)) expect(N8N_PORT_FUNCTIONS[id!], `${spec.subtype} names port function ${id}`).toBeTypeOf('function');
      const version = spec.type_versions!.at(-1)!;
      const values = withDefaults(spec.parameters, {}, { typeVersion: version, nodeType: spec.subtype });
      // A function that fails on the defaults (n8n's own then gives no ports) leaves the ports unknown: never a throw.
      const ports = nodePorts(spec, values, version, undefined);
      dynamic++;
      if ((spec.dynamic_ports!.inputs === undefined || ports.inputs) && (spec.dynamic_ports!.outputs === undefined || ports.outputs)) computed++;
    }
    expect(dynamic).toBeGreaterThan(40);
    expect(computed / dynamic).toBeGreaterThan(0.95);
  });

  it('gives the nodes of webhook workflows the parameters that decide what they do, and examples in the shape real workflows use', () => {
    // Issue 30's trial found these missing from essentials; the rule (src/catalog/essentials.ts) is checked against them.
    const current = newestDescriptions(specs).current;
    const essentials = (name: string) => {
      const spec = current.find((s) => s.subtype === `n8n-nodes-base.${name}`)!;
      const answer = serializeSpec(spec, { includeExamples: true, includeSchemas: false, detail: 'essentials' });
      return {
        names: (answer.parameters as { name: string; common_fields?: string[] }[]).map((p) => p.name),
        fields: Object.fromEntries((answer.parameters as { name: string; common_fields?: string[] }[]).map((p) => [p.name, p.common_fields])),
        example: (answer.examples as { name: string; parameters: Record<string, unknown> }[])[0]!,
      };
    };
    expect(essentials('webhook').names).toEqual(expect.arrayContaining(['httpMethod', 'path', 'responseMode']));
    expect(essentials('respondToWebhook').names).toEqual(expect.arrayContaining(['respondWith', 'responseBody']));
    expect(essentials('set').names).toContain('assignments');
    expect(essentials('html').fields.extractionValues).toEqual(expect.arrayContaining(['values.cssSelector', 'values.key']));
    for (const name of ['webhook', 'respondToWebhook', 'set', 'if', 'filter', 'switch', 'summarize']) {
      expect(essentials(name).example.name, name).toMatch(/as real workflows write it/);
    }
    expect(essentials('set').example.parameters).toMatchObject({
      assignments: { assignments: expect.arrayContaining([expect.objectContaining({ type: 'string' })]) },
    });
    expect(essentials('webhook').example.parameters).toMatchObject({ httpMethod: 'POST', path: expect.any(String) });
  });
});
