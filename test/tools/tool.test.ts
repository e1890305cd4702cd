import { describe, expect, it } from 'vitest';
import { bearer, createKey } from '../support/keys';
import { messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import { modern, pollTask, withTasks } from '../support/modern';

/**
 * ToolContext.caller: every way a tool can run hands it the principal the Worker authenticated (id,
 * subject, scopes), since what a tool may show depends on the scopes (user data needs users:read).
 */
describe('the caller a tool is given', () => {
  const narrowKey = createKey(['nodes:read', 'workflows:read']);
  const expected = async () => {
    const { record } = await narrowKey;
    return { id: `key_${record.id}`, subject: `key_${record.id}`, scopes: ['nodes:read', 'workflows:read'] };
  };

  it('in a session, run directly in its object and through the queue', async () => {
    const headers = bearer((await narrowKey).key);
    const sessionId = await openSession(undefined, headers);
    for (const name of ['test_caller', 'test_queued_caller']) {
      const response = await postJson('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } }, { ...headers, ...sessionHeaders(sessionId) });
      const [reply] = (await messagesOf(response)).filter((m) => m.id === 2);
      expect(reply?.result.structuredContent, name).toEqual(await expected());
    }
  });

  it('in a 2026-07-28 request, run in the Worker and as a task', async () => {
    const headers = bearer((await narrowKey).key);
    for (const name of ['test_caller', 'test_queued_caller']) {
      const { body } = await modern('tools/call', { name, arguments: {} }, { headers });
      expect(body.result.structuredContent, name).toEqual(await expected());
    }
    const { body } = await modern('tools/call', { name: 'test_queued_caller', arguments: {} }, { capabilities: withTasks, headers });
    expect(body.result.resultType).toBe('task');
    const task = await pollTask(body.result.taskId, { headers });
    expect(task).toMatchObject({ status: 'completed', result: { structuredContent: await expected() } });
  });
});
