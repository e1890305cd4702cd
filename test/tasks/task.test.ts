import { describe, expect, it } from 'vitest';
import { applyInput, runMessage, settle, taskView, type TaskRecord } from '../../src/tasks/task';

const elicit = { method: 'elicitation/create' as const, params: { message: '?', requestedSchema: { type: 'object' as const, properties: {} } } };
const task = (overrides: Partial<TaskRecord> = {}): TaskRecord => ({
  taskId: 't1',
  owner: 'key:a',
  caller: { id: 'key:a', subject: 'key:a', scopes: ['workflows:read'] },
  tool: 'confirm_delete',
  arguments: { filename: 'x' },
  status: 'working',
  createdAt: Date.UTC(2026, 6, 28, 10, 30),
  lastUpdatedAt: Date.UTC(2026, 6, 28, 10, 30),
  callId: 'run-1',
  deadline: Date.UTC(2026, 6, 28, 10, 32),
  timeoutMs: 120_000,
  inputResponses: {},
  ...overrides,
});

describe('task model', () => {
  it('puts a task on the wire flat, with ISO times, ttlMs and pollIntervalMs, and only the field its status has', () => {
    expect(taskView(task())).toEqual({
      taskId: 't1',
      status: 'working',
      createdAt: '2026-07-28T10:30:00.000Z',
      lastUpdatedAt: '2026-07-28T10:30:00.000Z',
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    const result = { content: [{ type: 'text' as const, text: 'ok' }] };
    const done = taskView(task({ status: 'completed', result, error: { code: 1, message: 'stale' } }));
    expect(done).toMatchObject({ status: 'completed', result });
    expect(done).not.toHaveProperty('error');
    expect(taskView(task({ status: 'failed', error: { code: -32603, message: 'x' }, result }))).not.toHaveProperty('result');
    expect(taskView(task({ status: 'cancelled', inputRequests: { a: elicit } }))).not.toHaveProperty('inputRequests');
  });

  it('settles a run: a result completes, an error fails, an input request waits', () => {
    const now = Date.UTC(2026, 6, 28, 11);
    expect(settle(task({ statusMessage: 'half' }), { kind: 'result', result: { content: [] } }, now)).toMatchObject({
      status: 'completed',
      lastUpdatedAt: now,
      statusMessage: undefined,
    });
    expect(settle(task(), { kind: 'error', error: { code: -32603, message: 'no' } }, now)).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(settle(task(), { kind: 'input_required', inputRequests: { a: elicit } }, now)).toMatchObject({
      status: 'input_required',
      inputRequests: { a: elicit },
    });
  });

  it('keeps answers to outstanding requests only, and starts a new run with all of them once none is left', () => {
    const waiting = task({ status: 'input_required', inputRequests: { a: elicit, b: elicit } });
    expect(applyInput(waiting, { z: 1 }, 5, 'run-2')).toBe(waiting);
    const partial = applyInput(waiting, { a: 'A', z: 1 }, 5, 'run-2');
    expect(partial).toMatchObject({ status: 'input_required', inputRequests: { b: elicit }, inputResponses: { a: 'A' }, callId: 'run-1' });
    const resumed = applyInput(partial, { b: 'B' }, 10, 'run-2');
    expect(resumed).toMatchObject({ status: 'working', inputResponses: { a: 'A', b: 'B' }, callId: 'run-2', deadline: 10 + 120_000 });
    expect(resumed.inputRequests).toBeUndefined();
    expect(applyInput(task(), { a: 'A' }, 5, 'run-2')).toMatchObject({ status: 'working', callId: 'run-1' });
    expect(runMessage(resumed)).toMatchObject({
      v: 2,
      taskId: 't1',
      callId: 'run-2',
      caller: { id: 'key:a', scopes: ['workflows:read'] },
      inputResponses: { a: 'A', b: 'B' },
    });
  });

  it('takes an answer only for a request it made: "constructor" or "__proto__" are not requests of every task', () => {
    const waiting = task({ status: 'input_required', inputRequests: { a: elicit } });
    expect(applyInput(waiting, JSON.parse('{"constructor": 1, "__proto__": {"polluted": true}, "toString": 2}'), 5, 'run-2')).toBe(waiting);
    const answered = applyInput(waiting, JSON.parse('{"__proto__": {"polluted": true}, "a": "A"}'), 5, 'run-2');
    expect(answered).toMatchObject({ status: 'working', inputResponses: { a: 'A' } });
    expect(Object.keys(answered.inputResponses)).toEqual(['a']);
  });

  it('sends a run’s input in its message, or says the task’s object has it when it is too large for one', () => {
    expect(runMessage(task())).toMatchObject({ arguments: { filename: 'x' } });
    expect(runMessage(task())).not.toHaveProperty('inputStored');
    const { arguments: _, ...keptApart } = task();
    expect(runMessage(keptApart)).toMatchObject({ inputStored: true });
    expect(runMessage(keptApart)).not.toHaveProperty('arguments');
    const largeAnswers = runMessage(task({ inputResponses: { a: 'x'.repeat(70_000) } }));
    expect(largeAnswers).toMatchObject({ inputStored: true });
    expect(largeAnswers).not.toHaveProperty('inputResponses');
  });

  it('runs a task kept before its caller was: with no scopes, the narrowest answer', () => {
    const { caller, ...older } = task();
    expect(runMessage(older).caller).toEqual({ id: 'key:a', subject: 'key:a', scopes: [] });
  });

  it("takes an answer keyed like one of Object.prototype's names only when that input request is outstanding", () => {
    const waiting = task({ status: 'input_required', inputRequests: JSON.parse(JSON.stringify({ a: elicit })) });
    for (const key of ['constructor', 'toString', '__proto__']) {
      expect(applyInput(waiting, JSON.parse(`{"${key}": "x"}`), 5, 'run-2')).toBe(waiting);
    }
    const named = task({ status: 'input_required', inputRequests: JSON.parse(`{"__proto__": ${JSON.stringify(elicit)}}`) });
    const resumed = applyInput(named, JSON.parse('{"__proto__": "yes"}'), 5, 'run-2');
    expect(resumed).toMatchObject({ status: 'working', callId: 'run-2' });
    expect(Object.getOwnPropertyDescriptor(resumed.inputResponses, '__proto__')?.value).toBe('yes');
  });
});
