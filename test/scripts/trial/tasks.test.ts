import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../scripts/trial/state.ts';
import { readHidden, readTasks } from '../../../scripts/trial/tasks.ts';

/** The trial's tasks and their hidden checks agree: each task can be checked, and nothing hidden leaks into a task. */
describe('trial tasks', () => {
  const tasks = readTasks();
  const hidden = readHidden();

  it("are twenty-three (issue 30's eight, issue 40's six and its eight held out, issue 42's one), with distinct ids and webhook paths, each named in its request", () => {
    expect(tasks).toHaveLength(23);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(23);
    expect(new Set(tasks.map((t) => t.path)).size).toBe(23);
    for (const task of tasks) expect(task.request, task.id).toContain(`\`${task.path}\``);
  });

  it('each have 3 to 5 hidden payloads, none of them the example the request shows', () => {
    expect([...hidden.keys()].sort()).toEqual(tasks.map((t) => t.id).sort());
    for (const task of tasks) {
      const { cases } = hidden.get(task.id)!;
      expect(cases.length, task.id).toBeGreaterThanOrEqual(3);
      expect(cases.length, task.id).toBeLessThanOrEqual(5);
      const examples = examplesIn(task.request);
      expect(examples.length, task.id).toBeGreaterThan(0);
      for (const { body } of cases) expect(examples, task.id).not.toContainEqual(body);
    }
  });

  it('expect an HTTP status other than 200 only where the request asks for one', () => {
    for (const task of tasks) {
      const statuses = hidden.get(task.id)!.cases.flatMap((c) => (c.status === undefined ? [] : [c.status]));
      for (const status of statuses) expect(task.request, task.id).toContain(`HTTP status ${status}`);
    }
  });

  it('start from a seeded workflow only where the task changes one, and that workflow answers at the task path', () => {
    const seeded = tasks.filter((t) => t.seed);
    expect(seeded.map((t) => t.id)).toEqual(['change']);
    for (const task of seeded) {
      const workflow = JSON.parse(readFileSync(join(ROOT, 'scripts/trial', task.seed!), 'utf8')) as {
        nodes: { type: string; parameters: { path?: string } }[];
      };
      expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.webhook').map((n) => n.parameters.path)).toEqual([task.path]);
      expect(hidden.get(task.id)!.structure).toBe('seededWorkflow');
    }
  });
});

/** The JSON objects a request shows in backticks. */
function examplesIn(request: string): unknown[] {
  return [...request.matchAll(/`([^`]+)`/g)].flatMap(([, quoted]) => {
    try {
      const value: unknown = JSON.parse(quoted!);
      return typeof value === 'object' && value !== null ? [value] : [];
    } catch {
      return [];
    }
  });
}
