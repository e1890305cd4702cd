import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../scripts/lib/nodeCatalog';
import type { NodeSpec, Parameter } from '../../src/catalog/nodeSpec';
import { serializeSpec, type Detail } from '../../src/catalog/serialize';

/**
 * n8n's own nodes of the catalog `npm run dev` built for this run (the global set-up): every description
 * of every node. Community packages are left out here: two of them have 1,000–1,500 parameters each,
 * which this per-operation sweep would take minutes over; their examples are checked in catalogExamples.
 */
const specs = loadSpecs().filter((s) => s.source === 'n8n' && !s.community);

interface Answer {
  where: string;
  spec: NodeSpec;
  typeVersion: number;
  detail: Detail;
  answer: Record<string, unknown>;
}

/**
 * The answers get_node_details gives: every description at each typeVersion it covers in essentials,
 * at its newest in full, and narrowed to each of its operations.
 */
function allAnswers(): Answer[] {
  const out: Answer[] = [];
  const at = (spec: NodeSpec, typeVersion: number, detail: Detail, values?: Record<string, string>) =>
    out.push({
      where: `${spec.subtype}@${typeVersion} ${detail}${values ? ` ${JSON.stringify(values)}` : ''}`,
      spec,
      typeVersion,
      detail,
      answer: serializeSpec(spec, { includeExamples: true, includeSchemas: false, detail, typeVersion, ...(values ? { values } : {}) }),
    });
  for (const spec of specs) {
    const newest = spec.type_versions!.at(-1)!;
    for (const typeVersion of spec.type_versions!) at(spec, typeVersion, 'essentials');
    at(spec, newest, 'full');
    const operations = new Set(spec.parameters.filter((p) => p.name === 'operation').flatMap((p) => p.enum_values ?? []));
    for (const operation of operations) at(spec, newest, 'essentials', { operation: String(operation) });
  }
  return out;
}
const answers = allAnswers();

/** Every object in a value, at any depth, with the key it sits under. */
function* objects(value: unknown, key = ''): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) for (const v of value) yield* objects(v, key);
  else if (value && typeof value === 'object') {
    yield [key, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* objects(v, k);
  }
}

/** The lines of a shape: each field's, by its name (a filter's or a locator's template and pointers are no lines). */
function* linesIn(shape: unknown, key = ''): Generator<[string, string]> {
  if (typeof shape === 'string') yield [key, shape];
  else if (Array.isArray(shape)) for (const s of shape) yield* linesIn(s, key);
  else if (shape && typeof shape === 'object')
    for (const [k, v] of Object.entries(shape)) if (!['value', 'operators', 'types', 'mapping_modes', 'fields', 'modes'].includes(k)) yield* linesIn(v, k);
}

/** Every parameter of a spec, at any depth. */
const allParameters = (ps: Parameter[]): Parameter[] => ps.flatMap((p) => [p, ...allParameters(p.options ?? [])]);
const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
/**
 * Whether n8n says something beyond its name of every parameter of this name (a hint, a description or
 * a label): an answer names one of them, and which is not told by the name alone.
 */
const saysMore = (spec: NodeSpec, name: string) =>
  allParameters(spec.parameters)
    .filter((p) => p.name === name)
    .every((p) => p.hint || [p.description, p.display_name ?? ''].some((t) => t.trim() !== '' && bare(t) !== bare(name)));

/** The notation of n8n's TypeScript workflow SDK, which no tool here takes. */
const SDK = /\.on(?:True|False|Case)\(|(?<![$\w])expr\(|nextBatch\(|newCredential\(|\.output\([^)]*\)\.to\(|`subnodes|@builderHint/;

describe('every answer get_node_details gives over the built catalog', () => {
  it('covers every description, at every typeVersion and operation', () => {
    expect(specs.length).toBeGreaterThan(900);
    expect(answers.length).toBeGreaterThan(3000);
  });

  it('is written in the notation of workflow JSON: no SDK call, no display condition as n8n writes it', () => {
    const found = answers.flatMap(({ where, answer }) => {
      const text = JSON.stringify(answer);
      return [SDK.exec(text)?.[0], /"_cnd"|"display_options"|filter_versions|options_version_by_type_version/.exec(text)?.[0]]
        .filter((m) => m !== undefined)
        .map((m) => `${where}: ${m}`);
    });
    expect(found).toEqual([]);
  });

  it('says every condition in words', () => {
    const notation = answers.flatMap(({ where, answer }) =>
      [...objects(answer)]
        .flatMap(([, o]) => [o.when ?? []].flat())
        // A regular expression n8n tests a value against is said as "matches /…/".
        .filter((when) => typeof when !== 'string' || /[=|{}]|_cnd|^\/|\s\//.test(when.replace(/matches \/.*?\/(?=$|,| and | or )/g, '')))
        .map((when) => `${where}: ${JSON.stringify(when)}`),
    );
    expect(notation).toEqual([]);
  });

  it('names no parameter, option or choice without its type and what it is for, where n8n says it', () => {
    const unexplained: string[] = [];
    for (const { where, spec, answer, detail } of answers.filter((a) => a.detail === 'essentials')) {
      for (const entry of answer.parameters as Record<string, unknown>[]) {
        const name = String(entry.name);
        if (!entry.type) unexplained.push(`${where}: ${name} has no type`);
        if (!entry.description && !entry.hint && saysMore(spec, name)) unexplained.push(`${where}: ${name} says not what it is`);
        // A collection names its fields in its shape, each with a line; never bare.
        if (entry.type === 'collection' && entry.enum_values) unexplained.push(`${where}: ${name} names its fields bare`);
        const named = allParameters(spec.parameters).filter((p) => p.name === name);
        for (const choice of (entry.choices ?? []) as { value: unknown; description?: string }[]) {
          const said = named.every((p) => p.enum_descriptions?.[p.enum_values!.indexOf(choice.value as never)]);
          if (said && !choice.description) unexplained.push(`${where}: ${name}'s choice ${String(choice.value)} says not what it does`);
        }
      }
      const lines = [
        ...Object.entries(answer.other_parameters as Record<string, string>),
        ...(answer.parameters as { shape?: unknown }[]).flatMap((entry) => [...linesIn(entry.shape)]),
      ];
      for (const [name, line] of lines) {
        if (!/^(required )?(list of )?("|-?\d|true|false|a choice|[a-z_]+( |$))/.test(line))
          unexplained.push(`${where} ${detail}: ${name} "${line}" has no type`);
        if (!line.includes(' — ') && saysMore(spec, name)) unexplained.push(`${where}: ${name} "${line}" says not what it is`);
      }
    }
    expect(unexplained).toEqual([]);
  }, 120_000);

  it('gives one typeVersion and one filter version per answer, those of the typeVersion described', () => {
    const disagreeing = answers.flatMap(({ where, answer, typeVersion }) => {
      const examples = (answer.examples ?? []) as { output: { typeVersion: number } }[];
      const typeVersions = new Set(examples.map((e) => e.output.typeVersion));
      const filterVersions = new Set([...objects(answer)].filter(([, o]) => 'typeValidation' in o && 'version' in o).map(([, o]) => JSON.stringify(o.version)));
      const wrong = [...typeVersions].some((v) => v !== typeVersion) || filterVersions.size > 1;
      return wrong ? [`${where}: typeVersions ${[...typeVersions].join(', ')}, filter versions ${[...filterVersions].join(', ')}`] : [];
    });
    expect(disagreeing).toEqual([]);
    // There are filters to judge: IF, Filter, Switch and more.
    expect(answers.filter(({ answer }) => [...objects(answer)].some(([, o]) => 'typeValidation' in o && 'version' in o)).length).toBeGreaterThan(10);
  });

  it('calls required only what the caller must set: never a parameter whose default n8n runs with', () => {
    const usable = (v: unknown) => (typeof v === 'string' && v !== '') || typeof v === 'number' || typeof v === 'boolean';
    const wrong = answers.flatMap(({ where, answer }) =>
      [...objects(answer.parameters)]
        .filter(([, o]) => o.required === true && usable(o.default_value))
        .map(([, o]) => `${where}: ${String(o.name)} = ${JSON.stringify(o.default_value)}`),
    );
    expect(wrong).toEqual([]);
  });
});
