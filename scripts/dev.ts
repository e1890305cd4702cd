/**
 * `npm run dev`: builds the default catalog, loads it into the local KV that `wrangler dev` will use,
 * makes sure there is a local API key and prints how to connect with it, then runs `wrangler dev`
 * answering only to loopback host names on its port (DNS-rebinding protection).
 * Arguments are passed on to wrangler dev; `--persist-to DIR` also picks the KV the catalog goes into.
 * It serves the production Worker (src/worker.ts); a module path among the arguments serves that entry
 * instead (test/entry/worker.ts: the conformance pack and fault hooks on top, for conformance and load).
 */
import { spawn } from 'node:child_process';
import { build, catalogsFromArgs } from './catalog/build.ts';
import { load } from './catalog/load.ts';
import { ensureDevKey } from './keys/devKey.ts';
import { devKeyFile } from './keys/devKeyFile.ts';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const stateDir = option('--persist-to') ?? '.wrangler/state';
const local = ['--local', '--persist-to', stateDir];
const catalogAt = args.indexOf('--catalogs');
const wranglerArgs = catalogAt >= 0 ? args.filter((_, i) => i !== catalogAt && i !== catalogAt + 1) : args;

await build(catalogsFromArgs(args));
load(local);
const key = await ensureDevKey(stateDir, local);
const port = option('--port') ?? '8787';
const url = `http://localhost:${port}`;
console.error(`
Local API key (every scope; kept in ${devKeyFile(stateDir)}):
  ${key}
Connect Claude Code:
  claude mcp add --transport http n8n-edge ${url}/mcp --header "Authorization: Bearer ${key}"
Open ${url}/ in a browser: how to connect every client, the tools, a node catalog explorer (paste the key there).
More keys: npm run keys -- create --name NAME --scopes nodes:read ${local.join(' ')}
`);

// The loopback names on this port only: nothing else reaches this server, so nothing else may name it
// (a Host with another port would otherwise be taken into OAuth metadata and links). The port is given
// to wrangler too: it would move to another one when this one is taken.
const hosts = ['localhost', '127.0.0.1', '[::1]'].map((host) => `${host}:${port}`).join(',');
const portArgs = option('--port') === undefined ? ['--port', port] : [];
const child = spawn('npx', ['wrangler', 'dev', '--var', `ALLOWED_HOSTS:${hosts}`, ...portArgs, ...wranglerArgs], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
