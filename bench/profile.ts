/**
 * Where a tools/call's time goes in this server: a CPU profile of its isolate while sessions call
 * server_info, taken through workerd's inspector (under `wrangler dev` the Worker, the session objects
 * and the queue consumer run in one isolate, so one profile holds both sides of a call).
 *
 *   npm run bench:profile -- [--era legacy|modern] [--sessions 1] [--seconds 8] [--vars NAME=v,…]
 *                            [--config bench/references/NAME/wrangler.toml]   (a reference instead)
 *
 * Samples are counted, not timed (see below), so figures are shares of the isolate's time in ms per call.
 * Prints self time grouped by where the code comes from (this project's folders, the MCP SDK, zod,
 * other packages, the runtime's own work) and the heaviest functions, per request; writes
 * bench/results/profile-<era>[-<reference>].json and the raw .cpuprofile for DevTools.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WebSocket } from 'undici';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { openSession } from './lib/mcpClient.ts';
import { round } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    era: { type: 'string', default: 'legacy' },
    sessions: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '8' },
    vars: { type: 'string', default: '' },
    config: { type: 'string' },
  },
});
const era = flags.era === 'modern' ? 'modern' : 'legacy';
const SESSIONS = Number(flags.sessions);
const SECONDS = Number(flags.seconds);
const vars = Object.fromEntries(
  flags.vars
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One Chrome DevTools Protocol connection: `send` resolves with the command's result. */
async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const target = targets[0];
  if (!target) throw new Error('no inspector target');
  // wrangler's inspector proxy admits local origins only.
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: 'http://127.0.0.1' } });
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  return {
    send: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve) => {
        const id = ++next;
        waiting.set(id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/**
 * The module each line of a bundle belongs to: esbuild (wrangler's bundler) opens every module with a
 * `// path` comment, so the profile's line numbers map back to source files without a source map.
 */
function modulesOf(source: string): (line: number) => string {
  const starts: [number, string][] = [];
  source.split('\n').forEach((text, line) => {
    const match = /^\/\/ ((?:\.\.\/)*(?:node_modules|src|bench|scripts)\/\S+\.[cm]?[jt]s)$/.exec(text);
    if (match) starts.push([line, match[1]!.replace(/^(\.\.\/)+/, '')]);
  });
  return (line) => {
    let module = '(bundle preamble)';
    for (const [start, name] of starts) {
      if (start > line) break;
      module = name;
    }
    return module;
  };
}

/** Where a module's code comes from, coarsely. */
function groupOf(module: string): string {
  const src = /^src\/([^/]+)\//.exec(module);
  if (src) return `src/${src[1]}`;
  if (module.startsWith('src/')) return 'src (top level)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module)?.[1];
  if (pkg === '@modelcontextprotocol/sdk') return 'MCP SDK 1.x (transport, types)';
  if (pkg?.startsWith('@modelcontextprotocol/')) return 'MCP SDK 2.x (server)';
  return pkg ? `package ${pkg}` : module;
}

/** This project, or a benchmark reference to set beside it. */
const serverName = flags.config ? (/references\/([^/]+)\//.exec(flags.config)?.[1] ?? 'reference') : 'this';
// Rate limits on (each request counted), with a budget the load cannot exhaust.
const server = await startWranglerDev(flags.config ? { config: flags.config } : { vars: { LOG_LEVEL: 'warn', ...vars }, requestLimit: 10_000_000 });
try {
  const target = { url: `${server.url}/mcp`, apiKey: server.apiKey, era } as const;
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => openSession(target)));
  let requests = 0;
  let id = 1;
  const loop = async (until: number) => {
    await Promise.all(
      sessions.map(async (session) => {
        while (Date.now() < until) {
          await session.call(id++);
          requests++;
        }
      }),
    );
  };
  await loop(Date.now() + 2000); // warm-up: compiled code, filled caches
  requests = 0;
  const inspector = await inspect(server.inspectorPort!);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.send('Profiler.start');
  const started = Date.now();
  await loop(started + SECONDS * 1000);
  const elapsed = Date.now() - started;
  const { profile } = await inspector.send<{ profile: Profile }>('Profiler.stop');

  // Native work (the runtime's own: I/O, streams, crypto) is charged to the JS function that called it.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  await inspector.send('Debugger.enable');
  const scripts = new Map<string, (line: number) => string>();
  for (const scriptId of new Set(profile.nodes.map((node) => node.callFrame.scriptId).filter((id) => id && id !== '0'))) {
    const { scriptSource } = await inspector.send<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId });
    scripts.set(scriptId, modulesOf(scriptSource ?? ''));
  }
  inspector.close();
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  // Each sample counts the same: on a busy machine the sampler thread is itself descheduled, and the
  // gaps between samples (timeDeltas, p90 over 1 ms here against a 0.1 ms interval) would charge that
  // wait to whatever function the next sample lands in.
  const usPerSample = (elapsed * 1000) / profile.samples.length;
  profile.samples.forEach((sampled) => {
    const us = usPerSample;
    const own = byId.get(sampled)!.callFrame.functionName;
    if (own === '(idle)') return add(groups, 'idle', us);
    if (own === '(garbage collector)') return add(groups, 'GC', us);
    if (own === '(program)') return add(groups, 'runtime (outside JS)', us);
    let nodeId: number | undefined = sampled;
    while (nodeId !== undefined && !byId.get(nodeId)!.callFrame.url) nodeId = parent.get(nodeId);
    if (nodeId === undefined) return add(groups, 'runtime (native, no JS caller)', us);
    const { functionName, lineNumber, scriptId } = byId.get(nodeId)!.callFrame;
    const module = scripts.get(scriptId)?.(lineNumber) ?? 'unknown';
    add(groups, groupOf(module), us);
    add(functions, `${functionName || '(anonymous)'}  ${module}`, us);
  });
  const busyUs = [...groups].filter(([g]) => g !== 'idle').reduce((sum, [, us]) => sum + us, 0);
  const perRequest = (us: number) => round(us / 1000 / requests, 3);
  const result = {
    server: serverName,
    era,
    sessions: SESSIONS,
    requests,
    seconds: round(elapsed / 1000, 1),
    rps: round(requests / (elapsed / 1000), 1),
    busyMsPerRequest: perRequest(busyUs),
    groups: Object.fromEntries([...groups].sort((a, b) => b[1] - a[1]).map(([g, us]) => [g, perRequest(us)])),
    topFunctions: Object.fromEntries(
      [...functions]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([f, us]) => [f, perRequest(us)]),
    ),
  };
  console.log(
    `${serverName}, ${era}, ${SESSIONS} session(s): ${requests} calls in ${result.seconds} s (${result.rps}/s); isolate busy ${result.busyMsPerRequest} ms per call`,
  );
  console.log('\nself time per call (ms), by origin:');
  for (const [group, ms] of Object.entries(result.groups)) console.log(`  ${String(ms).padStart(7)}  ${group}`);
  console.log('\nheaviest functions (ms per call):');
  for (const [name, ms] of Object.entries(result.topFunctions)) console.log(`  ${String(ms).padStart(7)}  ${name}`);
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/profile-${era}${serverName === 'this' ? '' : `-${serverName}`}`;
  writeFileSync(`${file}.json`, JSON.stringify(result, null, 2) + '\n');
  writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
} finally {
  await server.stop();
}
