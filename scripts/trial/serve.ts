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
 *   kill $(cat .tmp/trial/serve.pid)         # stops n8n and the server (a signal to npx would not reach them)
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRealN8n, N8N_VERSION, type RealN8n } from '../n8n/realN8n.ts';
import { startWranglerDev, type DevServer } from '../lib/wranglerDev.ts';
import { ROOT, callLogFile, n8nFile, pidFile, serverFile, trialDir, writeState } from './state.ts';
import { readTasks } from './tasks.ts';

// `npm run dev` and wrangler read the checkout's wrangler.toml, package.json and .catalog/.
process.chdir(ROOT);
refuseSecondTrial();
mkdirSync(trialDir(), { recursive: true });
writeFileSync(pidFile(), `${process.pid}\n`);
// A new n8n starts empty: the calls logged against an earlier one are kept apart.
if (existsSync(callLogFile())) renameSync(callLogFile(), callLogFile().replace(/\.jsonl$/, `-${Date.now()}.jsonl`));

const started = Date.now();
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

let n8n: RealN8n | undefined;
let server: DevServer | undefined;
let ready = false;
let stopRequested = false;
const stop = async () => {
  for (const file of [serverFile(), n8nFile(), pidFile()]) rmSync(file, { force: true });
  await server?.stop();
  await n8n?.stop();
};
// A signal while starting is acted on once the step under way is done (n8n and wrangler run in
// process groups of their own: leaving them would keep them running).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopRequested) return;
    stopRequested = true;
    if (ready) void stop().then(() => process.exit(0));
  });
}
const stopIfAsked = () => {
  if (stopRequested) throw new Error('stopped while starting');
};

try {
  n8n = await startRealN8n();
  const n8nReady = Date.now();
  console.error(`n8n ${N8N_VERSION} ready in ${seconds(started)} s`);
  stopIfAsked();
  const seeded: Record<string, string> = {};
  for (const task of readTasks().filter((t) => t.seed)) {
    seeded[task.id] = await createActiveWorkflow(n8n.url, n8n.apiKey, JSON.parse(readFileSync(join(ROOT, 'scripts/trial', task.seed!), 'utf8')));
  }
  const serverStarted = Date.now();
  server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey } });
  console.error(`server ready in ${seconds(serverStarted)} s (seeding took ${((serverStarted - n8nReady) / 1000).toFixed(1)} s)`);
  stopIfAsked();

  writeState(n8nFile(), { url: n8n.url, apiKey: n8n.apiKey, seeded });
  writeState(serverFile(), {
    mcpUrl: `${server.url}/mcp`,
    apiKey: server.apiKey!,
    callLog: callLogFile(),
    startedAt: new Date().toISOString(),
  });
} catch (error) {
  await stop();
  if (stopRequested) process.exit(0);
  throw error;
}
ready = true;

console.error(`trial ready in ${seconds(started)} s
  server file (for call.ts): ${serverFile()}
  n8n file (for check.ts only, never the agent): ${n8nFile()}
  n8n editor: ${n8n.url} (see scripts/n8n/realN8n.ts for the login)
Ctrl-C or \`kill $(cat ${pidFile()})\` stops both and deletes n8n's data.`);

/** One trial per directory: a second would overwrite the first one's files. */
function refuseSecondTrial(): void {
  if (!existsSync(pidFile())) return;
  const pid = Number(readFileSync(pidFile(), 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return; // the earlier serve.ts is gone without cleaning up
  }
  throw new Error(`a trial is already served from ${trialDir()} (pid ${pid}): stop it, or set TRIAL_DIR for another one`);
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
