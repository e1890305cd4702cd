/**
 * `npm run catalog:observe`: runs every node that needs no credential and no outside service (n8n's
 * core, transform, flow and date nodes) in a real n8n, in every typeVersion this catalog has that the
 * n8n of the tests (scripts/n8n/realN8n.ts, 1.123.81) ships, in the configurations configurations.ts
 * derives from its description, on the scenarios of sample.ts; and writes what each run put out to
 * specs/observed/behaviour.json (committed: `npm run dev` and the build read it, nothing runs n8n at
 * start-up). TypeVersions n8n 1.123.81 does not ship (n8n 2.x's newer ones) carry the runs of the
 * nearest older version it ships, and say so (`carriedFrom`).
 *
 * One workflow per node version: Webhook → "Input 1" (and "Input 2", for nodes with two inputs), Code
 * nodes that put out the scenario's items → one node per configuration, each with
 * `onError: continueRegularOutput` so one configuration's error does not stop the others. Each
 * scenario is one call of the webhook; the execution's run data is read back through n8n's API.
 *
 *   npm run catalog:observe                 # about 5 minutes; installs n8n into .n8n/ the first time
 *   npm run catalog:observe -- --only crypto  # prints the runs of the node versions whose key has "crypto"; writes nothing
 *   npm run catalog:observe -- --check      # no n8n: fails when the file is not what the catalog and
 *                                           # these scripts would observe now (run in CI)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import type { ObservedConfiguration, ObservedVersion, ScenarioName } from '../../../src/catalog/observed.ts';
import { ReleaseNodes } from '../../../src/n8n/releaseTable.ts';
import { N8N_VERSION, startRealN8n } from '../../n8n/realN8n.ts';
import { readN8nSpecs } from '../n8n/import.ts';
import { configurations, type Configuration } from './configurations.ts';
import { recordRun } from './record.ts';
import { ITEMS_WITHOUT_FIELDS, SAMPLE_ITEMS, SCENARIOS, SECOND_INPUT } from './sample.ts';
import { OBSERVED_FILE } from './paths.ts';
import { observedNodes } from './select.ts';

export interface ObservedFile {
  about: string;
  n8n: string;
  sample: { input1: unknown[]; input2: unknown[]; missing: unknown[] };
  /** `type@typeVersion` → what ran. */
  nodes: Record<string, ObservedVersion>;
}

/** Each node version to observe: the typeVersion to run (itself, or the nearest older one n8n ships) and its configurations. */
export interface Plan {
  key: string;
  spec: NodeSpec;
  typeVersion: number;
  runOn: number;
  configurations: Configuration[];
  twoInputs: boolean;
}

const release = new ReleaseNodes(N8N_VERSION);
const ships = (type: string, typeVersion: number): boolean => release.ships(type, typeVersion) === 'yes';

export function plan(specs: NodeSpec[]): Plan[] {
  const plans: Plan[] = [];
  for (const spec of observedNodes(specs)) {
    const all = spec.node_versions ?? spec.type_versions ?? [];
    for (const typeVersion of spec.type_versions ?? []) {
      const runOn = ships(spec.subtype, typeVersion) ? typeVersion : all.filter((v) => v < typeVersion && ships(spec.subtype, v)).sort((a, b) => b - a)[0];
      if (runOn === undefined) continue;
      const described = runOn === typeVersion ? spec : specs.find((s) => s.subtype === spec.subtype && s.type_versions?.includes(runOn))!;
      const mainInputs = described.input_ports.filter((p) => p.type === 'main').length;
      plans.push({
        key: `${spec.subtype}@${typeVersion}`,
        spec: described,
        typeVersion,
        runOn,
        configurations: configurations(spec.subtype, runOn, described.parameters),
        twoInputs: mainInputs >= 2 || described.dynamic_ports?.inputs !== undefined,
      });
    }
  }
  return plans;
}

async function observe(only?: string): Promise<void> {
  const plans = plan(readN8nSpecs()).filter((p) => !only || p.key.includes(only));
  const n8n = await startRealN8n({ GENERIC_TIMEZONE: 'UTC', TZ: 'UTC' });
  const started = Date.now();
  const nodes: Record<string, ObservedVersion> = {};
  const ran = new Map<string, ObservedConfiguration[]>();
  try {
    for (const [index, p] of plans.entries()) {
      const runKey = `${p.spec.subtype}@${p.runOn}`;
      let observed = ran.get(runKey);
      if (!observed) {
        observed = await runPlan(n8n.url, n8n.apiKey, p, index);
        ran.set(runKey, observed);
      }
      nodes[p.key] = { n8n: N8N_VERSION, ...(p.runOn !== p.typeVersion ? { carriedFrom: p.runOn } : {}), configurations: observed };
      console.error(
        `${index + 1}/${plans.length} ${p.key}: ${p.configurations.length} configurations${p.runOn !== p.typeVersion ? ` (carried from ${p.runOn})` : ''}`,
      );
    }
  } finally {
    await n8n.stop();
  }
  if (only) {
    // A look at some nodes while changing the configurations: printed, the file left as it is.
    console.log(JSON.stringify(nodes, null, 1));
    return;
  }
  const file: ObservedFile = {
    about:
      'Generated by `npm run catalog:observe` (scripts/catalog/observe/observe.ts): what each node version did on a real n8n, per configuration and scenario. Do not edit.',
    n8n: N8N_VERSION,
    sample: { input1: SAMPLE_ITEMS, input2: SECOND_INPUT, missing: ITEMS_WITHOUT_FIELDS },
    nodes,
  };
  mkdirSync(dirname(OBSERVED_FILE), { recursive: true });
  writeFileSync(OBSERVED_FILE, `${JSON.stringify(file)}\n`);
  const configurationsRun = [...ran.values()].reduce((n, c) => n + c.length, 0);
  console.error(
    `observed ${Object.keys(nodes).length} node versions (${ran.size} run, the rest carried over), ${configurationsRun} configurations, in ${((Date.now() - started) / 1000).toFixed(0)} s: ${OBSERVED_FILE}`,
  );
}

/** n8n's refusal to run a workflow in which a node lacks a required value (its "issues"). */
class HasIssues extends Error {}

/**
 * Runs one node version's configurations in every scenario. n8n runs no workflow in which one node
 * has issues: then the configurations are run in halves, down to the ones n8n refuses, which are
 * recorded as refused.
 */
async function runPlan(url: string, apiKey: string, p: Plan, index: number): Promise<ObservedConfiguration[]> {
  try {
    return await runTogether(url, apiKey, p, index);
  } catch (error) {
    if (!(error instanceof HasIssues)) throw error;
  }
  if (p.configurations.length === 1) {
    const refused = { ran: false, error: 'n8n refuses to run a workflow holding this configuration: a value it requires is empty' };
    const [configuration] = p.configurations;
    return [{ label: configuration!.label, parameters: configuration!.parameters, runs: Object.fromEntries(scenariosOf(p).map((s) => [s, refused])) }];
  }
  const half = Math.ceil(p.configurations.length / 2);
  return [
    ...(await runPlan(url, apiKey, { ...p, configurations: p.configurations.slice(0, half) }, index)),
    ...(await runPlan(url, apiKey, { ...p, configurations: p.configurations.slice(half) }, index)),
  ];
}

const scenariosOf = (p: Plan): ScenarioName[] => (Object.keys(SCENARIOS) as ScenarioName[]).filter((s) => !SCENARIOS[s].twoInputsOnly || p.twoInputs);

/** Runs the configurations side by side in one workflow, one webhook call per scenario. */
async function runTogether(url: string, apiKey: string, p: Plan, index: number): Promise<ObservedConfiguration[]> {
  const path = `observe-${index}-${Date.now()}`;
  const workflow = workflowOf(p, path);
  const api = apiOf(url, apiKey);
  const { id } = (await api('POST', '/workflows', workflow)) as { id: string };
  try {
    await api('POST', `/workflows/${id}/activate`);
    const runs = p.configurations.map((c): ObservedConfiguration => ({ label: c.label, parameters: c.parameters, runs: {} }));
    for (const scenario of scenariosOf(p)) {
      const feed = SCENARIOS[scenario];
      const runData = await runOnce(url, api, id, path, { input1: feed.input1, input2: feed.input2 });
      p.configurations.forEach((_, i) => (runs[i]!.runs[scenario] = recordRun(runData[configurationNode(i)])));
    }
    return runs;
  } finally {
    await api('DELETE', `/workflows/${id}`).catch(() => undefined);
  }
}

const configurationNode = (i: number) => `Configuration ${i + 1}`;

function workflowOf(p: Plan, path: string) {
  const input = (name: string, field: string, x: number, y: number) => ({
    name,
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [x, y],
    parameters: { jsCode: `return ($input.first().json.body.${field} ?? []).map((json) => ({ json }));` },
  });
  const nodes: unknown[] = [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: path,
      parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
    },
    input('Input 1', 'input1', 200, 0),
  ];
  const connections: Record<string, { main: { node: string; type: 'main'; index: number }[][] }> = {
    Webhook: { main: [[{ node: 'Input 1', type: 'main', index: 0 }]] },
    'Input 1': { main: [[]] },
  };
  if (p.twoInputs) {
    nodes.push(input('Input 2', 'input2', 200, 200));
    connections.Webhook!.main[0]!.push({ node: 'Input 2', type: 'main', index: 0 });
    connections['Input 2'] = { main: [[]] };
  }
  p.configurations.forEach((c, i) => {
    nodes.push({
      name: configurationNode(i),
      type: p.spec.subtype,
      typeVersion: p.runOn,
      position: [400, i * 100],
      parameters: c.parameters,
      onError: 'continueRegularOutput',
    });
    connections['Input 1']!.main[0]!.push({ node: configurationNode(i), type: 'main', index: 0 });
    if (p.twoInputs) connections['Input 2']!.main[0]!.push({ node: configurationNode(i), type: 'main', index: 1 });
  });
  return { name: `observe ${p.key}`, nodes, connections, settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' } };
}

type Api = (method: string, path: string, body?: unknown) => Promise<unknown>;

function apiOf(url: string, apiKey: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'x-n8n-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`n8n ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : {};
  };
}

/** Calls the webhook and answers the finished execution's run data (node name → task runs). */
async function runOnce(url: string, api: Api, workflowId: string, path: string, body: unknown): Promise<Record<string, never>> {
  const before = ((await api('GET', `/executions?workflowId=${workflowId}&limit=1`)) as { data: { id: string }[] }).data[0]?.id;
  const response = await fetch(`${url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`webhook ${path}: ${response.status} ${await response.text()}`);
  for (let attempt = 0; attempt < 200; attempt++) {
    const list = (await api('GET', `/executions?workflowId=${workflowId}&limit=1`)) as { data: { id: string; finished: boolean; status: string }[] };
    const latest = list.data[0];
    if (latest && latest.id !== before && !['running', 'new', 'waiting'].includes(latest.status)) {
      const execution = (await api('GET', `/executions/${latest.id}?includeData=true`)) as {
        data?: { resultData?: { runData?: Record<string, never>; error?: { message?: string; node?: { name?: string } } } };
      };
      const error = execution.data?.resultData?.error;
      // An error of the run itself (not of one configuration, which continueRegularOutput keeps to its node) leaves the nodes after it unrun: say so.
      if (error?.message?.includes('has issues')) throw new HasIssues(error.message);
      if (error && !error.node?.name?.startsWith('Configuration'))
        throw new Error(`the run of ${path} failed at ${error.node?.name ?? 'its start'}: ${error.message}`);
      return execution.data?.resultData?.runData ?? {};
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`no finished execution of ${path} after 20 s`);
}

/** `--check`: the committed file holds exactly the node versions and configurations the catalog and these scripts plan now. */
export function stale(file: ObservedFile, plans: Plan[]): string[] {
  const problems: string[] = [];
  if (file.n8n !== N8N_VERSION) problems.push(`observed on n8n ${file.n8n}, the tests' n8n is ${N8N_VERSION}`);
  const planned = new Map(plans.map((p) => [p.key, p]));
  for (const key of Object.keys(file.nodes)) if (!planned.has(key)) problems.push(`${key} is observed but no longer planned`);
  for (const [key, p] of planned) {
    const observed = file.nodes[key];
    if (!observed) {
      problems.push(`${key} is not observed`);
      continue;
    }
    const wanted = JSON.stringify(p.configurations.map((c) => [c.label, c.parameters]));
    const have = JSON.stringify(observed.configurations.map((c) => [c.label, c.parameters]));
    if (wanted !== have) problems.push(`${key}: its configurations changed`);
  }
  return problems;
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    if (!existsSync(OBSERVED_FILE)) throw new Error(`${OBSERVED_FILE} is missing: npm run catalog:observe`);
    const problems = stale(JSON.parse(readFileSync(OBSERVED_FILE, 'utf8')) as ObservedFile, plan(readN8nSpecs()));
    if (problems.length > 0) {
      console.error(`specs/observed/behaviour.json is not current (npm run catalog:observe writes it again):\n  ${problems.slice(0, 20).join('\n  ')}`);
      process.exit(1);
    }
    console.error('specs/observed/behaviour.json is current');
  } else {
    await observe(process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined);
  }
}
