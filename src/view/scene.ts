import { dict, type Dict } from '../lib/ownKeys';
import type { ViewWorkflow } from './workflow';

/**
 * What the view shows for one tool call: the workflow to draw and what to lay over it (findings on
 * their nodes, what a change did, what a run did), the words above it, and the actions a person may
 * ask for. Made from the call's arguments and its answer by ./readCall.ts; drawn by ./draw.ts.
 */

type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  message: string;
  code?: string;
  /** Where in the node (a dotted path, as the validator writes it: `parameters.rules[0].value`), when the finding says. */
  path?: string;
  /** The sure fix made or offered for it, in words. */
  fix?: string;
}

/** What a change did to a node. */
export type Mark = 'added' | 'changed' | 'removed';

/** What a run did at one node. */
export interface NodeRun {
  status: 'success' | 'error' | 'waiting';
  /** Items it put out, per output. */
  items: number[];
  error?: string;
  /** The items it got (when the answer holds them). */
  received?: unknown;
  /** The items it put out (when the answer holds them). */
  output?: unknown;
  /** Its place in the run, from 1. */
  order?: number;
}

/** A request a person can make from the view: a tool call through the host, under their own rights. */
export interface Action {
  label: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** Why it is there, shown beside it. */
  hint?: string;
}

/** A read through the host, and where its answer goes in the scene. */
export interface Fetch {
  tool: string;
  arguments: Record<string, unknown>;
  into: 'workflow' | 'before' | 'runs';
}

export interface Scene {
  title: string;
  /** One line under the title: counts, status. */
  summary: string;
  /** The workflow drawn; absent while it is being read, or when the answer holds none. */
  workflow?: ViewWorkflow;
  /** The workflow before the change (a fix, an edit, a version diff): drawn side by side or overlaid. */
  before?: ViewWorkflow;
  /** Findings by node name; those of the workflow as a whole under "". */
  findings: Dict<Finding[]>;
  marks: Dict<Mark>;
  /** The answer named every node that changed (a diff's): comparing the two versions adds none. */
  marksComplete?: true;
  /** What each node did in the run shown, by node name. */
  runs: Dict<NodeRun>;
  actions: Action[];
  /** Reads whose answers hold what this scene lacks (an execution's workflow, the version a change replaced, a test's run). */
  fetch?: Fetch[];
  /** The answer was an error: its words. */
  error?: string;
}

/**
 * A scene with nothing laid over it. Findings, marks and runs are keyed by node names, which a workflow's
 * author chooses ("constructor", "__proto__"): they are Dicts, objects without a prototype (src/lib/ownKeys.ts).
 */
export const emptyScene = (title: string): Scene => ({ title, summary: '', findings: dict(), marks: dict(), runs: dict(), actions: [] });
