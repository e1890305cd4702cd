import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TaskObject } from '../../src/tasks/TaskObject';
import { isTaskId, newTaskId, taskStub } from '../../src/tasks/taskId';

describe('task ids', () => {
  it('are minted unguessable and each its own: 256 random bits, taken back by isTaskId', () => {
    const ids = Array.from({ length: 100 }, newTaskId);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) expect(isTaskId(id), id).toBe(true);
  });

  it('refuses anything that is not one: a guess, a session id’s length in other characters, a UUID', () => {
    for (const id of ['', 'task-1', '*'.repeat(43), crypto.randomUUID(), `${newTaskId()}x`]) expect(isTaskId(id), id).toBe(false);
  });

  it('address the task’s own object: the same id reaches the same storage, another id another', async () => {
    const [one, two] = [newTaskId(), newTaskId()];
    await runInDurableObject(taskStub(env, one), (_: TaskObject, state) => state.storage.put('marker', one));
    expect(await runInDurableObject(taskStub(env, one), (_: TaskObject, state) => state.storage.get('marker'))).toBe(one);
    expect(await runInDurableObject(taskStub(env, two), (_: TaskObject, state) => state.storage.get('marker'))).toBeUndefined();
  });
});
