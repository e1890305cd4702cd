/**
 * Deploys every workflow template the way an agent is told to: `get_template`, then `create_workflow`
 * with its `workflow` (not switched on), through the default `npm run dev` server driving a real n8n
 * 1.123.81; then reads each saved workflow back from n8n's own API. Counts what was saved, what
 * create_workflow refused (with the finding that refused it) and what n8n refused, and checks that n8n
 * holds the template's nodes and connections as served.
 *
 *   npx tsx bench/templatesOnN8n.ts
 *
 * Writes bench/results/templates-n8n.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readCollected } from '../scripts/catalog/templates/read.ts';
import { startRealN8n } from '../scripts/n8n/realN8n.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';

interface Served {
  id: string;
  name: string;
  validation: { valid: boolean; errors: number };
  workflow: { nodes: { name: string; type: string }[]; connections: Record<string, unknown> };
}

const n8n = await startRealN8n();
const server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off' } });
const client = new Client({ name: 'templates-on-n8n', version: '1.0.0' });
const outcomes: { id: string; name: string; valid: boolean; outcome: 'saved' | 'refused' | 'n8n refused' | 'saved, differs'; detail?: string }[] = [];
try {
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[])[0]!.text;
    return { isError: result.isError === true, text };
  };
  // Every template the catalog serves: the committed collection's ids.
  const ids = readCollected().map((t) => t.id);
  for (const id of ids) {
    const got = await call('get_template', { id });
    if (got.isError) throw new Error(`get_template ${id}: ${got.text}`);
    const template = JSON.parse(got.text) as Served;
    const created = await call('create_workflow', { workflow: template.workflow });
    const base = { id, name: template.name, valid: template.validation.valid };
    if (created.isError) {
      outcomes.push({ ...base, outcome: /n8n (answered|refused|said)/i.test(created.text) ? 'n8n refused' : 'refused', detail: created.text.slice(0, 300) });
      continue;
    }
    const savedId = (JSON.parse(created.text) as { id?: string; workflow?: { id?: string } }).id ?? JSON.parse(created.text).workflow?.id;
    const response = await fetch(`${n8n.url}/api/v1/workflows/${savedId}`, { headers: { 'x-n8n-api-key': n8n.apiKey } });
    const saved = (await response.json()) as Served['workflow'];
    const same =
      JSON.stringify(saved.nodes.map((n) => [n.name, n.type]).sort()) === JSON.stringify(template.workflow.nodes.map((n) => [n.name, n.type]).sort()) &&
      JSON.stringify(Object.keys(saved.connections).sort()) === JSON.stringify(Object.keys(template.workflow.connections).sort());
    outcomes.push({ ...base, outcome: same ? 'saved' : 'saved, differs' });
  }
} finally {
  await client.close();
  await server.stop();
  await n8n.stop();
}

const count = (filter: (o: (typeof outcomes)[number]) => boolean) => outcomes.filter(filter).length;
const summary = {
  templates: outcomes.length,
  saved: count((o) => o.outcome === 'saved'),
  savedDiffers: count((o) => o.outcome === 'saved, differs'),
  refusedByCreateWorkflow: count((o) => o.outcome === 'refused'),
  refusedByN8n: count((o) => o.outcome === 'n8n refused'),
  validTemplatesSaved: count((o) => o.valid && o.outcome === 'saved'),
  validTemplates: count((o) => o.valid),
  invalidTemplatesRefused: count((o) => !o.valid && o.outcome === 'refused'),
  invalidTemplates: count((o) => !o.valid),
};
console.log(`templates deployed with get_template → create_workflow on n8n 1.123.81:`);
console.log(JSON.stringify(summary, null, 2));
for (const o of outcomes.filter((o) => o.outcome !== 'saved' && o.valid)) console.log(`  ${o.id} ${o.name}: ${o.outcome} ${o.detail ?? ''}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/templates-n8n.json', JSON.stringify({ summary, outcomes }, null, 1) + '\n');
