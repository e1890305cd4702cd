import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc/<pid>/stat times, 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (ms) used so far by the processes descended from this one: the server under test (wrangler,
 * its workerd processes, or the Node reference), since only one runs at a time. Linux only; null elsewhere.
 * With the client's own CPU it shows whether a run is bound by the server or by what surrounds it.
 */
export function serverCpuMs(): number | null {
  if (process.platform !== 'linux') return null;
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command name, which is in parentheses and may hold spaces.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return []; // gone meanwhile
      }
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
