/** The trial's tasks (tasks.json, what the agent is given) and their hidden checks (hidden.json, what it never sees). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './state.ts';

export interface Task {
  id: string;
  kind: string;
  /** The webhook path the workflow answers at (POST /webhook/<path>). */
  path: string;
  /** The user's request, as the agent gets it (after `conventions`). */
  request: string;
  /** A workflow the harness creates before the trial (a file beside tasks.json). */
  seed?: string;
}

export interface HiddenCase {
  body: unknown;
  expect: unknown;
  /** The HTTP status expected with the answer; 200 when not given. */
  status?: number;
}

/**
 * What is checked in n8n beyond the answers: `callsSubWorkflow`, the workflow at the path calls
 * another one; `seededWorkflow`, the workflow at the path is the one the harness created (changed in
 * place, not replaced).
 */
export type StructureCheck = 'callsSubWorkflow' | 'seededWorkflow';

export interface HiddenTask {
  cases: HiddenCase[];
  structure?: StructureCheck;
}

const DIR = join(ROOT, 'scripts/trial');

interface TaskFile {
  /** What every task's request takes for granted (switched on, POST, JSON in and out, no other keys). */
  conventions: string;
  tasks: Task[];
}

const readTaskFile = () => JSON.parse(readFileSync(join(DIR, 'tasks.json'), 'utf8')) as TaskFile;

export function readTasks(): Task[] {
  return readTaskFile().tasks;
}

export function readConventions(): string {
  return readTaskFile().conventions;
}

export function readHidden(): Map<string, HiddenTask> {
  const { tasks } = JSON.parse(readFileSync(join(DIR, 'hidden.json'), 'utf8')) as { tasks: Record<string, HiddenTask> };
  return new Map(Object.entries(tasks));
}
