/**
 * Starts what an agent trial runs against and keeps it up until killed (Ctrl-C, SIGTERM):
 *   - a real n8n (scripts/n8n/realN8n.ts: installed into `.n8n/` of the checkout once; a symlink to
 *     another checkout's `.n8n/` saves the install) with the workflows some tasks start from
 *     (scripts/trial/tasks.json `seed`), created and switched on through n8n's public API;
 *   - this server (`npm run dev`, wrangler dev on loopback) driving that n8n, with a local key of
 *     every scope.
 * Writes the server file (MCP URL and key: what scripts/trial/call.ts reads) and, apart, the n8n file
 * (n8n's URL and key, the seeded workflows: what check.ts reads). See state.ts for where they go.
 *
 *   npx tsx scripts/trial/serve.ts           # from any directory; TRIAL_DIR / TRIAL_N8N_FILE move the files
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startRealN8n, N8N_VERSION } from '../n8n/realN8n.ts';
import { startWranglerDev } from '../lib/wranglerDev.ts';
import { ROOT, callLogFile, n8nFile, serverFile, writeState } from './state.ts';
import { readTasks } from './tasks.ts';

// `npm run dev` and wrangler read the checkout's wrangler.toml, package.json and .catalog/.
process.chdir(ROOT);

const started = Date.now();
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

const n8n = await startRealN8n();
const n8nReady = Date.now();
console.error(`n8n ${N8N_VERSION} ready in ${seconds(started)} s`);

let server: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
const stop = async () => {
  rmSync(serverFile(), { force: true });
  rmSync(n8nFile(), { force: true });
  await server?.stop();
  await n8n.stop();
};

try {
  const seeded: Record<string, string> = {};
  for (const task of readTasks().filter((t) => t.seed)) {
    seeded[task.id] = await createActiveWorkflow(n8n.url, n8n.apiKey, JSON.parse(readFileSync(join(ROOT, 'scripts/trial', task.seed!), 'utf8')));
  }
  const serverStarted = Date.now();
  server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey } });
  console.error(`server ready in ${seconds(serverStarted)} s (after n8n: seeding ${((serverStarted - n8nReady) / 1000).toFixed(1)} s)`);

  writeState(n8nFile(), { url: n8n.url, apiKey: n8n.apiKey, seeded });
  writeState(serverFile(), {
    mcpUrl: `${server.url}/mcp`,
    apiKey: server.apiKey!,
    callLog: callLogFile(),
    startedAt: new Date().toISOString(),
  });
} catch (error) {
  await stop();
  throw error;
}

console.error(`trial ready in ${seconds(started)} s
  server file (for call.ts): ${serverFile()}
  n8n file (for check.ts only, never the agent): ${n8nFile()}
  n8n editor: ${n8n.url} (see scripts/n8n/realN8n.ts for the login)
Ctrl-C or SIGTERM stops both and deletes n8n's data.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  });
}

/** Creates a workflow through n8n's public API, switches it on and answers its id. */
async function createActiveWorkflow(url: string, apiKey: string, workflow: unknown): Promise<string> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'x-n8n-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`n8n ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const { id } = await api('POST', '/workflows', workflow);
  await api('POST', `/workflows/${id}/activate`);
  return id;
}
