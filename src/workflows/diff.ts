/**
 * What changed between two versions of a workflow, as an agent reads it: nodes added, removed and
 * changed (by name; for a changed node, which of its fields and which parameters, as JSON Pointers into
 * its parameters, the same paths edit_workflow's setParameter takes), connections added and removed,
 * and the name and settings. Pure.
 */
import { escapeToken } from '../lib/jsonPointer';
import { own } from '../lib/ownKeys';
import { connectionMap, isTarget, targetLists, targetsOf } from './connectionMap';
import { isPlainObject, type Values } from './values';

/** Parameter paths listed per changed node, at most: a rewritten Code node is one path, a replaced list one too. */
const MAX_PATHS = 50;

interface NodeChange {
  node: string;
  /** Node fields other than parameters that differ: type, typeVersion, position, disabled, credentials… */
  fields?: string[];
  /** Parameters added, removed or changed, as JSON Pointers into the node's parameters. */
  parameters?: string[];
  /** How many parameter paths were left out past MAX_PATHS. */
  morePaths?: number;
}

export interface WorkflowDiff {
  name?: { from: unknown; to: unknown };
  nodes: { added: string[]; removed: string[]; changed: NodeChange[] };
  /** Connections as `"Source" main[0] → "Target" main[0]`. */
  connections: { added: string[]; removed: string[] };
  /** Settings keys whose values differ. */
  settings: string[];
  /** Whether the two versions are the same in all of the above. */
  same: boolean;
}

const nodesByName = (workflow: Values): Map<string, Values> =>
  new Map(
    (Array.isArray(workflow.nodes) ? workflow.nodes : [])
      .filter((n): n is Values & { name: string } => isPlainObject(n) && typeof n.name === 'string')
      .map((n) => [n.name, n]),
  );

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The JSON Pointers under which `a` and `b` differ: objects compared key by key, anything else (lists too) as a whole. */
function differingPaths(a: unknown, b: unknown, at: string, out: string[]): void {
  if (same(a, b)) return;
  if (!isPlainObject(a) || !isPlainObject(b)) {
    out.push(at || '/');
    return;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) differingPaths(own(a, key), own(b, key), `${at}/${escapeToken(key)}`, out);
}

/** Every connection of a workflow, one string each. */
function connectionLines(workflow: Values): Set<string> {
  const lines = new Set<string>();
  for (const list of targetLists(connectionMap(workflow.connections))) {
    for (const t of targetsOf(list)) {
      if (isTarget(t))
        lines.add(`${JSON.stringify(list.source)} ${list.type}[${list.output}] → ${JSON.stringify(t.node)} ${String(t.type)}[${String(t.index)}]`);
    }
  }
  return lines;
}

/** What changed from `from` to `to`. */
export function diffWorkflows(from: Values, to: Values): WorkflowDiff {
  const before = nodesByName(from);
  const after = nodesByName(to);
  const changed: NodeChange[] = [];
  for (const [name, node] of after) {
    const old = before.get(name);
    if (!old) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(node)])].filter(
      (k) => k !== 'parameters' && k !== 'id' && !same(own(old, k), own(node, k)),
    );
    const paths: string[] = [];
    differingPaths(own(old, 'parameters') ?? {}, own(node, 'parameters') ?? {}, '', paths);
    if (fields.length === 0 && paths.length === 0) continue;
    changed.push({
      node: name,
      ...(fields.length ? { fields } : {}),
      ...(paths.length ? { parameters: paths.slice(0, MAX_PATHS) } : {}),
      ...(paths.length > MAX_PATHS ? { morePaths: paths.length - MAX_PATHS } : {}),
    });
  }
  const linesBefore = connectionLines(from);
  const linesAfter = connectionLines(to);
  const settingsFrom = isPlainObject(from.settings) ? from.settings : {};
  const settingsTo = isPlainObject(to.settings) ? to.settings : {};
  const diff: WorkflowDiff = {
    ...(same(from.name, to.name) ? {} : { name: { from: from.name, to: to.name } }),
    nodes: { added: [...after.keys()].filter((n) => !before.has(n)), removed: [...before.keys()].filter((n) => !after.has(n)), changed },
    connections: { added: [...linesAfter].filter((l) => !linesBefore.has(l)), removed: [...linesBefore].filter((l) => !linesAfter.has(l)) },
    settings: [...new Set([...Object.keys(settingsFrom), ...Object.keys(settingsTo)])].filter((k) => !same(own(settingsFrom, k), own(settingsTo, k))),
    same: false,
  };
  diff.same =
    diff.name === undefined &&
    diff.nodes.added.length +
      diff.nodes.removed.length +
      changed.length +
      diff.connections.added.length +
      diff.connections.removed.length +
      diff.settings.length ===
      0;
  return diff;
}
