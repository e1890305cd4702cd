import { describe, expect, it } from 'vitest';
import { isTaskListen } from '../../src/tasks/listen';
import { newTaskId } from '../../src/tasks/taskId';
import { createKey } from '../support/keys';
import { postJson, sseReader } from '../support/mcp';
import { modern, withTasks } from '../support/modern';
import { startTask } from '../support/tasks';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': withTasks };
const LISTEN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
const listenBody = (id: string, notifications: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications, _meta: ENVELOPE },
});
const listen = (id: string, taskIds: unknown[]) => postJson('/mcp', listenBody(id, { taskIds }), LISTEN_HEADERS);

describe('which listen is a task listen', () => {
  const request = (headers: Record<string, string>) => new Request('https://mcp.example/mcp', { method: 'POST', headers });

  it('is a valid 2026-07-28 subscriptions/listen that asks for task status (notifications.taskIds)', () => {
    expect(isTaskListen(request(LISTEN_HEADERS), listenBody('l', { taskIds: [] }))).toBe(true);
  });

  it('leaves any other listen to the SDK, and one its validation refuses for the SDK to answer', () => {
    expect(isTaskListen(request(LISTEN_HEADERS), listenBody('l', { toolsListChanged: true }))).toBe(false);
    expect(isTaskListen(request(LISTEN_HEADERS), listenBody('l', { taskIds: 'all' }))).toBe(false);
    expect(isTaskListen(request({ ...LISTEN_HEADERS, 'mcp-method': 'tools/list' }), listenBody('l', { taskIds: [] }))).toBe(false);
    expect(isTaskListen(request(LISTEN_HEADERS), { jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { notifications: { taskIds: [] } } })).toBe(
      false,
    );
    expect(isTaskListen(request(LISTEN_HEADERS), { ...listenBody('l', { taskIds: [] }), method: 'tools/list' })).toBe(false);
  });
});

describe('task status on a subscriptions/listen stream', () => {
  it('acknowledges, then sends the whole task at each change until it ends, relayed from the task’s object', async () => {
    const taskId = await startTask('test_queued_progress', {});
    const { key } = await createKey(['*']);
    const stranger = await startTask('test_queued_slow', { ms: 200 }, { authorization: `Bearer ${key}` });
    const response = await listen('listen-1', [stranger, taskId]);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sseReader(response);
    const ack = JSON.parse((await stream.next()).data);
    // Another caller's task is not watched, and not even said to exist.
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    });
    const statuses: string[] = [];
    for (;;) {
      const note = JSON.parse((await stream.next()).data);
      expect(note).toMatchObject({ method: 'notifications/tasks', params: { taskId, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });
      statuses.push(note.params.status);
      if (note.params.status === 'completed') {
        expect(note.params.result.content[0].text).toBe('done');
        break;
      }
    }
    expect(statuses[0]).toBe('working');
    await expect(stream.next()).rejects.toThrow('stream ended');
  });

  it('watches a task named twice once, and one that has ended sends itself and ends the stream', async () => {
    const taskId = await startTask('test_queued_echo', { text: 'over' });
    const stream = sseReader(await listen('listen-2', [taskId, taskId]));
    expect(JSON.parse((await stream.next()).data).params.notifications.taskIds).toEqual([taskId]);
    let note = JSON.parse((await stream.next()).data);
    while (note.params.status === 'working') note = JSON.parse((await stream.next()).data);
    expect(note.params).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { echo: 'over' } } });
    await expect(stream.next()).rejects.toThrow('stream ended');
  });

  it('acknowledges none and ends at once when no task named is the caller’s: unknown, or no task id at all', async () => {
    const stream = sseReader(await listen('listen-3', [newTaskId(), 'not a task id', 42, null]));
    expect(JSON.parse((await stream.next()).data)).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-3' } },
    });
    await expect(stream.next()).rejects.toThrow('stream ended');
  });

  it('refuses a task listen from a client that does not declare the tasks extension', async () => {
    const { status, body } = await modern('subscriptions/listen', { notifications: { taskIds: ['x'.repeat(43)] } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
  });
});
