/**
 * The README's generated tables: every tool from the registry, and the configuration from `src/env.ts`
 * (its doc comments) with the values `wrangler.toml` gives. `npm run docs:readme` writes them between
 * their marker comments; test/scripts/docsReadme.test.ts fails when the README's differ.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { unstable_readConfig } from 'wrangler';
import type { Env } from '../../src/env.ts';
import { toolsFor } from '../../src/server/registry.ts';
import type { ToolDefinition } from '../../src/tools/tool.ts';

/** The tables by the name in their markers (`<!-- tools:start -->` … `<!-- tools:end -->`). */
export type Tables = Record<string, string>;

/** Replaces what stands between each table's markers; a marker missing or doubled is an error, not a silent skip. */
export function replaceTables(readme: string, tables: Tables): string {
  let out = readme;
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < 0) throw new Error(`README: the markers ${start} and ${end} are missing`);
    if (out.indexOf(start, from + 1) >= 0 || out.indexOf(end, to + 1) >= 0) throw new Error(`README: ${start} or ${end} occurs twice`);
    if (to < from) throw new Error(`README: ${end} comes before ${start}`);
    out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`;
  }
  return out;
}

/** Both tables of this checkout: the registry's tools, src/env.ts and wrangler.toml. */
export function readmeTables(root = '.'): Tables {
  const config = unstable_readConfig({ config: `${root}/wrangler.toml` });
  const withN8n = toolsFor({ N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'key' } as Env);
  const always = new Set(toolsFor({} as Env).map((tool) => tool.name));
  return {
    tools: toolsTable(withN8n, always),
    config: configTable(readFileSync(`${root}/src/env.ts`, 'utf8'), config),
  };
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/**
 * What a tool does, in a line: the first sentence of its description, up to a colon that opens a list.
 * Only a full stop or colon outside brackets counts ("(e.g. …)", "{NODE_TYPE: […]}" end nothing), and
 * a full stop only before a space or the end.
 */
export function purpose(description: string): string {
  let depth = 0;
  for (let i = 0; i < description.length; i++) {
    const char = description[i]!;
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (char === '.' || char === ':') && /^\s?$/.test(description.charAt(i + 1))) return description.slice(0, i).trim();
  }
  return description.trim();
}

/** One row per tool in registry order; `always` names those served without an n8n; `drawn`: the workflow view shows its calls in hosts with MCP Apps. */
export function toolsTable(tools: readonly ToolDefinition[], always: ReadonlySet<string>): string {
  const rows = tools.map((tool) => {
    const scopes = [tool.scope, ...(tool.alsoNeeds ?? [])].filter(Boolean).map((scope) => `\`${scope}\``);
    return [
      `\`${tool.name}\``,
      always.has(tool.name) ? 'always' : 'with n8n',
      scopes.length > 0 ? scopes.join(' + ') : 'any credential',
      tool.execution,
      tool.view ? 'drawn' : '',
      cell(purpose(tool.description)),
    ];
  });
  return table(['tool', 'served', 'scope', 'runs', 'view', 'what it does'], rows);
}

/** What wrangler.toml declares, as the config table reads it. */
export interface WranglerBindings {
  vars: Record<string, unknown>;
  durable_objects: { bindings: { name: string; class_name: string }[] };
  kv_namespaces: { binding: string }[];
  queues: { producers?: { binding: string; queue: string }[] };
  ratelimits: { name: string; simple: { limit: number; period: number } }[];
  analytics_engine_datasets: { binding: string; dataset?: string }[];
}

interface Member {
  names: string[];
  type: string;
  doc: string;
}

/**
 * The members of `interface Env`, in order. A member without a doc comment shares the one before it
 * when both are plain strings (N8N_API_URL's comment covers N8N_API_KEY).
 */
export function envMembers(source: string): Member[] {
  const file = ts.createSourceFile('env.ts', source, ts.ScriptTarget.Latest, true);
  const env = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Env');
  if (!env) throw new Error('src/env.ts: no interface Env');
  const members: Member[] = [];
  for (const member of env.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const name = member.name.getText(file);
    const type = member.type.getText(file);
    const doc = ts
      .getJSDocCommentsAndTags(member)
      .map((jsDoc) => (typeof jsDoc.comment === 'string' ? jsDoc.comment : ''))
      .join(' ');
    const previous = members.at(-1);
    if (!doc && previous && previous.type === 'string' && type === 'string') previous.names.push(name);
    else members.push({ names: [name], type, doc: doc.trim() });
  }
  return members;
}

/** A variable, a secret, or the kind of binding, and what wrangler.toml sets it to. */
function declared(member: Member, config: WranglerBindings): { kind: string; value: string } {
  const [name] = member.names as [string];
  if (member.type === 'string') {
    if (/\bsecret\b/i.test(member.doc)) return { kind: 'secret', value: '—' };
    const value = config.vars[name];
    return { kind: 'variable', value: value === undefined ? 'unset' : `\`"${typeof value === 'string' ? value : JSON.stringify(value)}"\`` };
  }
  const durable = config.durable_objects.bindings.find((b) => b.name === name);
  if (durable) return { kind: 'Durable Object', value: `class \`${durable.class_name}\`` };
  if (config.kv_namespaces.some((b) => b.binding === name)) return { kind: 'KV namespace', value: 'provisioned on first deploy' };
  const producer = config.queues.producers?.find((b) => b.binding === name);
  if (producer) return { kind: 'queue producer', value: `queue \`${producer.queue}\`` };
  const limiter = config.ratelimits.find((b) => b.name === name);
  if (limiter) return { kind: 'rate limit', value: `${limiter.simple.limit} per ${limiter.simple.period} s` };
  const dataset = config.analytics_engine_datasets.find((b) => b.binding === name);
  if (dataset) return { kind: 'Analytics Engine', value: `dataset \`${dataset.dataset ?? name}\`` };
  return { kind: 'binding', value: 'not in wrangler.toml' };
}

const ORDER = ['variable', 'secret'];

/** Variables first, then secrets, then bindings, each in src/env.ts's order. */
export function configTable(envSource: string, config: WranglerBindings): string {
  const rows = envMembers(envSource).map((member) => ({ member, ...declared(member, config) }));
  const rank = (kind: string) => (ORDER.includes(kind) ? ORDER.indexOf(kind) : ORDER.length);
  const sorted = rows.map((row, index) => ({ row, index })).sort((a, b) => rank(a.row.kind) - rank(b.row.kind) || a.index - b.index);
  return table(
    ['name', 'kind', 'wrangler.toml', 'what'],
    sorted.map(({ row }) => [row.member.names.map((n) => `\`${n}\``).join(', '), row.kind, row.value, cell(row.member.doc) || '—']),
  );
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
