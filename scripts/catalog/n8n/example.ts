/**
 * The example a spec carries: the node as it is written in a workflow's "nodes" array, for the version
 * n8n's editor adds, with its default resource/operation and the default of each other choice that
 * decides which parameters apply (its mode: Crypto's action "hash"), every required parameter that then
 * applies set (to n8n's own placeholder where it has one), and the credential it needs. Valid by
 * construction: test/e2e/catalogExamples.test.ts runs the validator over every example.
 */
import type { NodeSpec, Parameter } from '../../../src/catalog/nodeSpec.ts';
import { visibility } from '../../../src/workflows/display.ts';
import { isMissing, withDefaults, type NodeIdentity, type Values } from '../../../src/workflows/values.ts';
import { switchesOf } from '../usage/parameters.ts';
import type { N8nNode, N8nProperty } from './mapNode.ts';

/** Parameters an agent chooses first: written out even when they keep their default (the node's switches too). */
const STRUCTURAL = ['resource', 'operation'];

export function exampleNode(spec: NodeSpec, raw: N8nNode & { webhooks?: unknown[] }, typeVersion: number) {
  const identity: NodeIdentity = { typeVersion, nodeType: spec.subtype };
  const given: Values = {};
  const switches = new Set(switchesOf(spec.parameters));
  const shown = (values: Values) => (p: { display_options?: Parameter['display_options'] }) =>
    visibility(p.display_options, { ...identity, values, root: values }) === 'shown';
  for (let pass = 0; pass < 3; pass++) {
    const values = withDefaults(spec.parameters, given, identity);
    for (const p of spec.parameters.filter(shown(values))) {
      if (Object.hasOwn(given, p.name)) continue;
      if ((STRUCTURAL.includes(p.name) || switches.has(p)) && p.default_value !== undefined) {
        // A few n8n descriptions default to a value their own list lacks: take the list's first.
        const listed = !p.enum_values?.length || p.dynamic_options || p.enum_values.includes(p.default_value as never);
        given[p.name] = listed ? p.default_value : p.enum_values![0];
      } else if (p.required && isMissing(p, values[p.name])) given[p.name] = placeholder(p, rawProperty(raw, p, values, identity));
    }
  }
  const values = withDefaults(spec.parameters, given, identity);
  const credentials = Object.fromEntries(
    (spec.credentials ?? [])
      .filter((c) => c.required && shown(values)(c))
      .slice(0, 1)
      .map((c) => [c.name, { id: 'CREDENTIAL_ID', name: `Your ${c.name} credential` }]),
  );
  const node: Record<string, unknown> = {
    type: spec.subtype,
    typeVersion,
    name: spec.display_name,
    parameters: given,
    position: [0, 0],
  };
  if (raw.webhooks?.length) node.webhookId = '00000000-0000-4000-8000-000000000000';
  if (Object.keys(credentials).length > 0) node.credentials = credentials;
  const what = [given.resource, given.operation].filter((v) => typeof v === 'string').join(' / ');
  return {
    // No version in the words: the example is shown at the typeVersion an answer describes.
    name: `${spec.display_name}${what ? `: ${what}` : ''} in workflow JSON`,
    description:
      `A ${spec.display_name} node as written in a workflow's "nodes" array, with every required parameter set. ` +
      'Replace the placeholder values' +
      (node.webhookId ? ', give each webhook node its own webhookId (a UUID)' : '') +
      (node.credentials ? ', and point credentials at one of yours' : '') +
      '.',
    parameters: given,
    output: node,
  };
}

/** The n8n property a parameter came from (same name, shown for these values): it has the placeholders. */
function rawProperty(raw: N8nNode, p: Parameter, values: Values, identity: NodeIdentity): N8nProperty | undefined {
  return (raw.properties ?? []).find((r) => r.name === p.name && visibility(r.displayOptions, { ...identity, values, root: values }) === 'shown');
}

function placeholder(p: Parameter, raw: N8nProperty | undefined): unknown {
  const values = (p.enum_values ?? []).filter((v) => v !== '');
  switch (p.type) {
    case 'enum':
      return values[0] ?? `<${p.display_name ?? p.name}>`;
    case 'multi_enum':
      return values.length ? values.slice(0, 1) : [`<${p.display_name ?? p.name}>`];
    case 'resource_locator': {
      const modes = p.modes ?? [];
      const mode = ['id', 'url', 'name'].find((m) => modes.includes(m)) ?? modes.find((m) => m !== 'list') ?? modes[0] ?? 'id';
      const hint = raw?.modes?.find((m) => m.name === mode)?.placeholder;
      return { __rl: true, mode, value: usable(hint) ?? `<${p.display_name ?? p.name}>` };
    }
    case 'datetime':
      return '2026-01-01T09:00:00';
    default:
      return usable(raw?.placeholder) ?? `<${p.display_name ?? p.name}>`;
  }
}

/** An n8n placeholder that is a sample value ("e.g. nathan@example.com"), not an instruction ("Select…"). */
function usable(hint: string | undefined): string | undefined {
  const value = hint?.replace(/^e\.g\.?\s*/i, '').trim();
  if (!value || /^(select|choose|add|enter|type|search)\b/i.test(value) || value.endsWith('...') || value.endsWith('…')) return undefined;
  return value;
}
