import { z } from 'zod';
import { Catalog, listedUnder } from '../../catalog/catalog';
import { EXPRESSION_GUIDE_POINTER } from '../../catalog/expressionGuide';
import { withinBudget } from '../../catalog/budget';
import type { NodeSpec, OptionValue } from '../../catalog/nodeSpec';
import { behaviourAnswer } from '../../catalog/observed';
import { nodeSettings, serializeSpec, type Detail } from '../../catalog/serialize';
import { defaultConnectionFor } from '../../workspaces/connectionFor';
import { instanceRelease, type InstanceRelease } from '../../n8n/release';
import { newestRelease, ReleaseNodes } from '../../n8n/releaseTable';
import { defineTool } from '../tool';

/** One request can ask for this many nodes; more would blow the response budget. */
const MAX_NODES = 20;

/** The values given that are choices to narrow by: texts, numbers, booleans; an expression or a structured value decides nothing before run time. */
const choicesIn = (parameters: Record<string, unknown> | undefined): Record<string, OptionValue> =>
  Object.fromEntries(
    Object.entries(parameters ?? {}).filter(
      (entry): entry is [string, OptionValue] =>
        (typeof entry[1] === 'string' && !entry[1].startsWith('=')) || typeof entry[1] === 'number' || typeof entry[1] === 'boolean',
    ),
  );

/**
 * An error naming what there is when a value asked for is not one of the node's: a parameter it does
 * not have, or a choice none of its parameters of that name offers (choices n8n's editor loads are
 * not all known: any value is taken there).
 */
function unknownChoice(spec: NodeSpec, asked: Record<string, OptionValue>): string | undefined {
  for (const [name, value] of Object.entries(asked)) {
    const named = spec.parameters.filter((p) => p.name === name);
    if (named.length === 0) return `${spec.display_name} has no parameter ${name}: leave it out`;
    if (named.some((p) => p.dynamic_options || !p.enum_values?.length)) continue;
    const choices = [...new Set(named.flatMap((p) => p.enum_values ?? []))];
    if (!choices.includes(value)) return `No ${name} ${JSON.stringify(value)}: ${spec.display_name} has ${choices.map((c) => JSON.stringify(c)).join(', ')}`;
  }
  return undefined;
}

export const getNodeDetails = defineTool({
  name: 'get_node_details',
  title: 'Get node specifications',
  description:
    'Get detailed specifications for one or more workflow nodes: parameters (types, defaults, choices, ' +
    'conditions), input/output ports with data formats, the credential types it takes, and an example node ' +
    'to paste into workflow JSON, in the shape real workflows use. n8n nodes have several typeVersions, each with its own parameters: ' +
    'type_versions says which this description covers and node_versions lists all; pass version to get the ' +
    'one your workflow uses (default: the newest the configured n8n runs), and resource/operation, or the values you mean to give any ' +
    'parameter that decides others (parameters: {"mode": "combine"}; a choice\'s "brings" names what it brings in), to narrow a node to what applies under them. ' +
    "For n8n's core, transform and flow nodes, behaviour says what the node was seen to do on a real n8n: per output the fields its items hold, " +
    'whether the input fields and order are kept, and what it does with no items, items missing the field it reads, or one input empty (pass parameters for your configuration). ' +
    'Then write the node and check it with validate_node or ' +
    `validate_workflow. Expressions ("={{ $json.body.email }}", $('Node'), dates): ${EXPRESSION_GUIDE_POINTER}. ` +
    'Answers one entry per requested node, in order; an unknown node gets an entry with an error instead.',
  input: z.object({
    nodes: z
      .array(
        z.object({
          node_type: z.string().describe('e.g. ACTION_NODE; a node listed under another is found all the same, and node_type_note names it'),
          subtype: z.string().describe('e.g. HTTP_REQUEST or n8n-nodes-base.gmail'),
          version: z.number().optional().describe('n8n nodes: the typeVersion to describe (e.g. 2.1); default: the newest the configured n8n runs'),
          resource: z.string().max(200).optional().describe('n8n nodes with resources: describe only what applies to this one (e.g. message)'),
          operation: z
            .string()
            .max(200)
            .optional()
            .describe('n8n nodes with operations: describe only what applies to this one (e.g. send); with detail "full", the way to read a large node whole'),
          parameters: z
            .record(z.string(), z.unknown())
            .optional()
            .describe(
              'The parameter values you intend (e.g. {"mode": "combine", "combineBy": "combineByFields"}): the answer gives in full ' +
                'the parameters the choices among them bring in, and leaves out those that do not apply; a collection named ({"options": {}}) is given with every field; behaviour then describes the observed configuration nearest them',
            ),
        }),
      )
      .min(1)
      .max(MAX_NODES)
      .describe('List of nodes to get details for'),
    include_examples: z.boolean().default(true).describe('Include usage examples in response'),
    include_schemas: z.boolean().default(true).describe('Include input/output schemas'),
    include_settings: z
      .boolean()
      .default(false)
      .describe(
        'Also answer the node settings, the same for every node and written beside "parameters": what happens on error (onError), ' +
          'retries, running once, always outputting an item, disabling, notes. Each answered node carries them: ask once.',
      ),
    detail: z
      .enum(['essentials', 'full'])
      .default('essentials')
      .describe(
        'essentials: the required parameters and those real workflows set, compactly, every other one named with a line, and one example ' +
          'as real workflows write it; full: every parameter with nested option trees, full descriptions and every example',
      ),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  async run({ nodes, include_examples, include_schemas, include_settings, detail }, { env, caller }) {
    const catalog = new Catalog(env.SPECS);
    const options = { includeExamples: include_examples, includeSchemas: include_schemas };
    const [release, types] = await Promise.all([defaultConnectionFor(env, caller).then(instanceRelease), catalog.types()]);
    const instance = release?.known ? new ReleaseNodes(release.release) : undefined;
    return withinBudget(
      nodes.length,
      async (i, remaining) => {
        const { subtype, resource, operation, parameters } = nodes[i]!;
        // A node found under another category than the one given: found all the same, and the right one said.
        const node_type = listedUnder(types, subtype) ?? nodes[i]!.node_type;
        const relabelled = node_type === nodes[i]!.node_type ? {} : { node_type_note: nodeTypeNote(nodes[i]!.node_type, node_type, subtype) };
        // Unasked, the version is the newest the instance runs: the catalog's newest may be past it.
        const version = nodes[i]!.version ?? (instance?.knows(subtype) ? instance.versions(subtype).at(-1) : undefined);
        const spec = await catalog.spec(node_type, subtype, version);
        if (!spec) {
          const newest = version === undefined ? null : await catalog.spec(node_type, subtype);
          if (!newest) return { node_type, subtype, error: 'Node specification not found' };
          return {
            node_type,
            subtype,
            ...relabelled,
            version,
            error: `No typeVersion ${version}: ${newest.display_name} has ${(newest.node_versions ?? [newest.version]).join(', ')}`,
          };
        }
        const values = { ...choicesIn(parameters), ...(resource === undefined ? {} : { resource }), ...(operation === undefined ? {} : { operation }) };
        const unknown = unknownChoice(spec, values);
        if (unknown) return { node_type, subtype, ...relabelled, error: unknown };
        const scope = { typeVersion: version, values, named: Object.keys(parameters ?? {}) };
        const n8n = releaseNote(release, subtype, nodes[i]!.version);
        // `version` names the typeVersion described, not the newest its description covers (agents read it so).
        const described = version === undefined ? {} : { version: String(version) };
        const settings = include_settings ? { node_settings: nodeSettings() } : {};
        const at = (level: Detail) => ({
          ...relabelled,
          ...onInstance(serializeSpec(spec, { ...options, ...scope, detail: level }), subtype, instance),
          ...described,
          n8n,
          ...settings,
        });
        const behaviour = behaviourAnswer(spec.observed, version ?? Number(spec.version), values);
        const answer = { ...at(detail), ...(behaviour ? { behaviour } : {}) };
        if (detail === 'essentials' || JSON.stringify(answer).length <= remaining) return answer;
        // A full spec too big for one response: the essentials, and how to read the rest (per
        // operation; the resource holds the newest description whole, an older one is asked for again on its own).
        const essentials = { ...at('essentials'), ...(behaviour ? { behaviour } : {}) };
        const newest = !spec.type_versions || spec.version === spec.node_versions?.map(String).at(-1);
        const perOperation = spec.parameters.some((p) => p.name === 'operation') && operation === undefined;
        return {
          ...essentials,
          full_too_large: `The full description passes the ~20,000-token answer budget: ${perOperation ? 'ask with resource/operation for the part you use' : 'ask for this node in a call of its own'}${newest ? ', or read full_specification' : ''}.`,
          ...(newest ? { full_specification: `node-spec://${node_type}/${subtype}` } : {}),
        };
      },
      (i) => ({ ...nodes[i]!, error: 'Left out to keep this response under ~20,000 tokens: ask for this node in another call' }),
    );
  },
});

/** What the answer says of a node asked for under another category than its own. */
const nodeTypeNote = (asked: string, listed: string, subtype: string): string =>
  `${subtype} is listed under node_type ${listed}, not ${asked}: this answer is for ${listed}/${subtype}`;

/**
 * The answer without what the configured n8n contradicts: the typeVersion n8n's editor adds in the
 * catalog's release, where the instance does not run it (its `n8n` line says the newest it runs).
 */
function onInstance<T extends { default_version?: unknown }>(answer: T, subtype: string, instance: ReleaseNodes | undefined): T {
  if (typeof answer.default_version !== 'number' || !instance?.knows(subtype) || instance.ships(subtype, answer.default_version) !== 'no') return answer;
  const { default_version: _, ...rest } = answer;
  return rest as T;
}

/** Which n8n the answer is for: the configured instance's release, or the catalog's and why. */
function releaseNote(release: InstanceRelease | undefined, subtype: string, asked: number | undefined): string {
  const catalog = `the catalog's release, n8n ${newestRelease()}`;
  if (!release) return `${catalog} (no n8n instance is configured)`;
  if (!release.known) return `${catalog}: the configured n8n's release is unknown (${release.reason})`;
  const instance = new ReleaseNodes(release.release);
  const at = `n8n ${instance.release}, the configured instance`;
  if (!instance.knows(subtype)) return at;
  const newest = instance.versions(subtype).at(-1);
  if (newest === undefined) return `${at}, which does not have this node`;
  if (asked === undefined) return `${at}: typeVersion ${newest} is the newest it runs`;
  return instance.ships(subtype, asked) === 'no' ? `${at}, which does not have typeVersion ${asked}: the newest it runs is ${newest}` : at;
}
