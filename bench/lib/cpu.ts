import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc/<pid>/stat times, 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

/** A process's stat fields after its name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime; null once it is gone. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU time (ms) one process has used so far (Linux; null elsewhere). */
export function processCpuMs(pid: number): number | null {
  const fields = process.platform === 'linux' ? statFields(pid) : null;
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND : null;
}

/**
 * CPU time (ms) used so far by the processes descended from this one: the server under test (wrangler,
 * its workerd processes, or the Node reference), since only one runs at a time. Linux only; null elsewhere.
 * With the client's own CPU it shows whether a run is bound by the server or by what surrounds it.
 * `withExited` adds what their children that exited used (cutime, cstime): where a process may exit
 * during a measurement (wrangler replacing its workerd), a plain sum would run backwards.
 */
export function serverCpuMs({ withExited = false }: { withExited?: boolean } = {}): number | null {
  if (process.platform !== 'linux') return null;
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      const fields = statFields(pid);
      if (!fields) return [];
      const own = Number(fields[11]) + Number(fields[12]);
      return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: withExited ? own + Number(fields[13]) + Number(fields[14]) : own }];
    });
  const descendants = new Set([process.pid]);
  // Parents come before children in most listings, but not always: repeat until nothing is added.
  for (let added = true; added;) {
    added = false;
    for (const p of processes) {
      if (!descendants.has(p.pid) && descendants.has(p.ppid)) {
        descendants.add(p.pid);
        added = true;
      }
    }
  }
  const ticks = processes.filter((p) => p.pid !== process.pid && descendants.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU time (ms) this process (the client) has used so far. */
export function clientCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
