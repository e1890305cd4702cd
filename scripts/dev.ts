/**
 * `npm run dev`: builds the default catalog, loads it into the local KV that `wrangler dev` will use,
 * then runs `wrangler dev` answering only to loopback host names (DNS-rebinding protection).
 * Arguments are passed on to wrangler dev; `--persist-to DIR` also picks the KV the catalog goes into.
 */
import { spawn } from 'node:child_process';
import { build, catalogsFromArgs } from './catalog/build.ts';
import { load } from './catalog/load.ts';

const args = process.argv.slice(2);
const persistAt = args.indexOf('--persist-to');
const persist = persistAt >= 0 ? ['--persist-to', args[persistAt + 1]!] : [];
const catalogAt = args.indexOf('--catalogs');
const wranglerArgs = catalogAt >= 0 ? args.filter((_, i) => i !== catalogAt && i !== catalogAt + 1) : args;

await build(catalogsFromArgs(args));
load(['--local', ...persist]);

const child = spawn('npx', ['wrangler', 'dev', '--var', 'ALLOWED_HOSTS:localhost,127.0.0.1,[::1]', ...wranglerArgs], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
