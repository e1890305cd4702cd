import { describe, expect, it } from 'vitest';
import { ToolCallMessageSchema } from '../../src/queues/message';

const call = { sessionId: 's1', callId: 'c1', tool: 'get_workflow', arguments: { id: 'a1' }, deadline: Date.UTC(2026, 10, 25) };
const caller = { id: 'key_1', subject: 'key_1', scopes: ['workflows:read', 'users:read'] };

describe('the tool-call message', () => {
  it('carries the whole caller (v2): id, subject and scopes', () => {
    expect(ToolCallMessageSchema.parse({ v: 2, ...call, caller })).toEqual({ v: 2, ...call, caller });
  });

  it('reads a v1 message still in the queue as a caller without scopes: the narrowest answer, never a wider one', () => {
    expect(ToolCallMessageSchema.parse({ v: 1, ...call, caller: 'key_1' })).toEqual({ v: 2, ...call, caller: { id: 'key_1', subject: 'key_1', scopes: [] } });
  });

  it('names its input as kept by its owner instead of carrying it, when it is too large for a message', () => {
    const { arguments: _, ...reference } = call;
    expect(ToolCallMessageSchema.parse({ v: 2, ...reference, inputStored: true, caller })).toEqual({ v: 2, ...reference, inputStored: true, caller });
    expect(ToolCallMessageSchema.safeParse({ v: 2, ...call, inputStored: true, caller }).success).toBe(false);
    expect(ToolCallMessageSchema.safeParse({ v: 2, ...reference, caller }).success).toBe(false);
  });

  it('refuses a shape it does not know', () => {
    for (const wrong of [
      { v: 3, ...call, caller },
      { v: 2, ...call, caller: 'key_1' },
      { v: 2, ...call, caller, taskId: 't1' },
      { v: 2, ...call, caller: { id: 'key_1' } },
    ]) {
      expect(ToolCallMessageSchema.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
    }
  });
});
