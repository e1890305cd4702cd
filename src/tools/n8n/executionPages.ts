/**
 * An execution's run data a page at a time, for get_execution with fullData when the whole execution is
 * more than one answer holds (ANSWER_BUDGET_BYTES): run by run, in the order the nodes ran, each run as
 * n8n stored it (status, times, error, where its items came from) with the items of its outputs that
 * fit the page. A cursor says where the next page starts: node (in the order they ran), run, output
 * (over the run's connection types, as n8n keys them), item.
 */
import { ANSWER_BUDGET_BYTES } from '../../config';
import { own } from '../../lib/ownKeys';
import { bytesInAnswer } from '../../protocol/answerBytes';
import { ToolError } from '../tool';
import { clip, nodeSummaries, runPath, type Execution } from './executionReport';

/** Where a page starts. */
interface Cursor {
  node: number;
  run: number;
  output: number;
  item: number;
}

/** A cursor as the answer gives it and the tool takes it: "node.run.output.item". */
export const CURSOR_PATTERN = /^\d{1,6}\.\d{1,6}\.\d{1,4}\.\d{1,9}$/;
const START: Cursor = { node: 0, run: 0, output: 0, item: 0 };

const cursorText = ({ node, run, output, item }: Cursor) => `${node}.${run}.${output}.${item}`;

function cursorOf(text: string): Cursor {
  const [node, run, output, item] = text.split('.').map(Number) as [number, number, number, number];
  return { node, run, output, item };
}

/** Bytes left for the answer's sentence and cursor beside the page: names in it are clipped to keep within them. */
const SENTENCE_BYTES = 2_000;

/** A node's name as the sentence quotes it, clipped at 100 characters. */
const quoted = (name: string) => `"${name.length > 100 ? `${name.slice(0, 100)}…` : name}"`;

interface NodeRun {
  data?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The items on one output of a run, and where the output is: its connection type and index. */
interface Output {
  type: string;
  index: number;
  items: unknown[];
}

function outputsOf(run: NodeRun): Output[] {
  return Object.entries(run.data ?? {}).flatMap(([type, outputs]) =>
    Array.isArray(outputs) ? outputs.map((items: unknown, index) => ({ type, index, items: Array.isArray(items) ? items : [] })) : [],
  );
}

/** A run on a page: the run as n8n stored it without its data, and the items of its outputs the page holds. */
interface PageRun {
  node: string;
  run: number;
  outputs: { type: string; index: number; count: number; from: number; items: unknown[] }[];
  [field: string]: unknown;
}

/**
 * The page of the execution's run data that starts at `cursor` (the first page without one), as
 * get_execution answers it: the execution's own fields, its error and last node, and per node what its
 * runs put out (first page only); the runs the page holds; a sentence saying what it holds and how to
 * read the next page (`nextCursor`). `bytes`: the whole execution's, for the sentence. An item larger
 * than a page is shown cut, and said.
 */
export function executionPage(execution: Execution, bytes: number, cursor: string | undefined): Record<string, unknown> {
  const { data, workflowData: _workflow, ...head } = execution;
  const start = cursor === undefined ? START : cursorOf(cursor);
  const path = runPath(execution);
  if (start.node >= path.length && path.length > 0) {
    throw new ToolError(`cursor "${cursor}" is past the end of execution ${execution.id}'s data: ${path.length} nodes ran.`);
  }
  const resultData = { error: data?.resultData?.error, lastNodeExecuted: data?.resultData?.lastNodeExecuted };
  const nodes = cursor === undefined ? { nodes: nodeSummaries(execution).map(({ sample: _sample, ...summary }) => summary) } : {};
  const frame = { ...head, data: { resultData, runData: [] }, ...nodes };
  const { runs, next, cut } = fill(execution, path, start, ANSWER_BUDGET_BYTES - bytesInAnswer(frame) - SENTENCE_BYTES);
  return {
    ...frame,
    data: { resultData, runData: runs },
    page: sentence(execution, bytes, { runs, next, cut, first: cursor === undefined }),
    ...(next ? { nextCursor: cursorText(next) } : {}),
  };
}

/** The runs from `start` on that fit `room` bytes of an answer, where the next page starts, and the items shown cut. */
function fill(execution: Execution, path: string[], start: Cursor, room: number): { runs: PageRun[]; next?: Cursor; cut: string[] } {
  const runData = (execution.data?.resultData?.runData ?? {}) as Record<string, NodeRun[]>;
  const runs: PageRun[] = [];
  const cut: string[] = [];
  let items = 0;
  for (let node = start.node; node < path.length; node++) {
    const name = path[node]!;
    const nodeRuns = own(runData, name) ?? [];
    for (let run = node === start.node ? start.run : 0; run < nodeRuns.length; run++) {
      const first = node === start.node && run === start.run;
      const { data: _data, ...stored } = nodeRuns[run]!;
      const entry: PageRun = { node: name, run, ...stored, outputs: [] };
      const entryBytes = bytesInAnswer(entry) + 1;
      if (entryBytes > room && runs.length > 0) return { runs, next: { node, run, output: 0, item: 0 }, cut };
      room -= entryBytes;
      runs.push(entry);
      const outputs = outputsOf(nodeRuns[run]!);
      for (let output = first ? start.output : 0; output < outputs.length; output++) {
        const { type, index, items: all } = outputs[output]!;
        const from = first && output === start.output ? start.item : 0;
        if (from >= all.length) continue;
        const slice = { type, index, count: all.length, from, items: [] as unknown[] };
        room -= bytesInAnswer(slice) + 1;
        entry.outputs.push(slice);
        for (let item = from; item < all.length; item++) {
          const itemBytes = bytesInAnswer(all[item]) + 1;
          if (itemBytes <= room) {
            slice.items.push(all[item]);
            room -= itemBytes;
            items++;
            continue;
          }
          if (items > 0) return { runs, next: { node, run, output, item }, cut };
          // One item larger than a whole page: shown cut (a JSON character takes at most 7 bytes here), so that every page moves on.
          slice.items.push(clip(all[item], Math.max(0, Math.floor(room / 7))));
          cut.push(`${quoted(name)} run ${run}, ${type} output ${index}, item ${item} (${itemBytes.toLocaleString('en-US')} bytes)`);
          const more = item + 1 < all.length || output + 1 < outputs.length || run + 1 < nodeRuns.length || node + 1 < path.length;
          return { runs, ...(more ? { next: { node, run, output, item: item + 1 } } : {}), cut };
        }
      }
    }
  }
  return { runs, cut };
}

/** What a page holds and how to read the rest. */
function sentence(execution: Execution, bytes: number, { runs, next, cut, first }: { runs: PageRun[]; next?: Cursor; cut: string[]; first: boolean }): string {
  const slices = runs.flatMap((r) =>
    r.outputs.map((o) => `${quoted(r.node)} run ${r.run} ${o.type} output ${o.index} items ${o.from}–${o.from + o.items.length - 1} of ${o.count}`),
  );
  const holds = slices.length
    ? `This page holds ${slices.length > 4 ? `${slices.slice(0, 2).join(', ')} … ${slices.slice(-2).join(', ')}` : slices.join(', ')}.`
    : 'This page holds no items.';
  return [
    `Execution ${execution.id}'s data is ${bytes.toLocaleString('en-US')} bytes, more than the ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} one answer holds: it comes a page at a time, run by run in the order the nodes ran${first ? ' (nodes: what each one put out)' : ''}.`,
    holds,
    cut.length ? `Shown cut, each larger than a page: ${cut.join(', ')}.` : '',
    next ? `The next page: get_execution with id ${execution.id}, includeData, fullData and cursor "${cursorText(next)}".` : 'This is the last page.',
    'Not in the pages: the workflow as it ran (get_workflow reads it) and the items left to run (view "error" shows those the failed node was given).',
  ]
    .filter(Boolean)
    .join(' ');
}
