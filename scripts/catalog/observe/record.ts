/**
 * What one run of one configuration is kept as: whether n8n ran the node, its error, and per output
 * the items' count, their `id`s (which input items they are, in which order) and their fields with
 * the JSON type each holds. Pure: n8n's run data of one node → a record.
 */
import type { ObservedRun, ObservedOutput } from '../../../src/catalog/observed.ts';
import { clip } from '../../../src/workflows/findings.ts';

interface TaskRun {
  error?: { message?: string; description?: string };
  data?: { main?: ({ json?: Record<string, unknown> }[] | null)[] };
}

/** The first of the node's task runs (each configuration runs once per execution), or "did not run". */
export function recordRun(taskRuns: TaskRun[] | undefined): ObservedRun {
  const run = taskRuns?.[0];
  if (!run) return { ran: false };
  const items = (run.data?.main ?? []).flatMap((output) => output ?? []);
  // onError "continueRegularOutput" turns a node's error into items holding only it (one, or one per item).
  const errors = items.map((item) => item.json ?? {}).filter((json) => Object.keys(json).length === 1 && typeof json.error === 'string');
  const message = run.error?.message ?? (items.length > 0 && errors.length === items.length ? (errors[0]!.error as string) : undefined);
  if (message !== undefined) return { ran: true, error: clip(message, 239) };
  return { ran: true, outputs: (run.data?.main ?? []).map((output) => recordOutput(output ?? [])) };
}

function recordOutput(items: { json?: Record<string, unknown> }[]): ObservedOutput {
  const fields: Record<string, string> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item.json ?? {})) {
      const type = typeOf(value);
      const seen = fields[name];
      fields[name] = seen === undefined || seen === type ? type : `${seen}|${type}`.split('|').filter(unique).sort().join('|');
    }
  }
  const ids = items.map((item) => item.json?.id);
  const output: ObservedOutput = { items: items.length, fields };
  if (ids.some((id) => typeof id === 'number')) output.ids = ids.map((id) => (typeof id === 'number' ? id : null));
  if (items.length > 0) output.first = clipValue(items[0]!.json ?? {});
  return output;
}

const unique = <T>(value: T, index: number, all: T[]) => all.indexOf(value) === index;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The first item as an example, strings cut to 80 characters (the ellipsis included) and lists to 3 entries. */
function clipValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clip(value, 79);
  if (Array.isArray(value)) return value.slice(0, 3).map((v) => clipValue(v, depth + 1));
  if (value && typeof value === 'object') {
    if (depth > 3) return '…';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipValue(v, depth + 1)]));
  }
  return value;
}
