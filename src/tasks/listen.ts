import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { classify } from '../server/era';
import type { Principal } from '../principal';
import type { Env } from '../env';
import { OWNER_HEADER } from './TaskObject';
import { SseStream } from '../http/sse';
import { jsonRpcError } from '../protocol/jsonrpc';
import { declaresTasks, tasksRequired } from './install';
import { isTaskId, taskStub } from './taskId';

/** At most this many tasks on one stream: each is a WebSocket to its object. */
const MAX_WATCHED = 32;

interface ListenBody {
  id: string | number;
  method: 'subscriptions/listen';
  params: { notifications: { taskIds: unknown[] }; _meta: Record<string, unknown> };
}

/**
 * A valid 2026-07-28 `subscriptions/listen` that asks for task status (`notifications.taskIds`, the
 * tasks extension's filter). The SDK's listen streams live in one isolate and know nothing of tasks,
 * so these are served here; any other listen goes to the SDK.
 */
export function isTaskListen(request: Request, body: unknown): body is ListenBody {
  const candidate = body as Partial<ListenBody> | null;
  if (candidate?.method !== 'subscriptions/listen' || !Array.isArray(candidate.params?.notifications?.taskIds)) return false;
  const outcome = classify(request, body);
  // Anything the SDK's validation ladder refuses is left to it to answer.
  return outcome.kind === 'modern';
}

/**
 * Serves a task listen: the acknowledgement, then `notifications/tasks` with the full task each time
 * one of the caller's tasks changes, relayed from a WebSocket to each task's object. The stream ends
 * when every watched task has ended (or at once, when none of them is the caller's).
 */
export async function listenToTasks(env: Env, body: ListenBody, principal: Principal): Promise<Response> {
  if (!declaresTasks(body.params._meta)) {
    const { code, message, data } = tasksRequired();
    return Response.json(jsonRpcError(body.id, code, message, data), { status: 400 });
  }
  const taskIds = [...new Set(body.params.notifications.taskIds.filter((id): id is string => typeof id === 'string' && isTaskId(id)))].slice(0, MAX_WATCHED);
  const meta = { [SUBSCRIPTION_ID_META_KEY]: body.id };
  const sockets: WebSocket[] = [];
  const stream = new SseStream(() => sockets.forEach((socket) => socket.close(1000, 'listener gone')));
  const send = (method: string, params: Record<string, unknown>) =>
    stream.send({ event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: meta } }) });

  // A task the caller does not own (or that does not exist) is simply not watched, and not named back.
  const watched = (
    await Promise.all(
      taskIds.map(async (taskId) => {
        const response = await taskStub(env, taskId).fetch('https://task/watch', { headers: { upgrade: 'websocket', [OWNER_HEADER]: principal.id } });
        return response.webSocket ? { taskId, socket: response.webSocket } : undefined;
      }),
    )
  ).filter((watch) => watch !== undefined);
  send('notifications/subscriptions/acknowledged', { notifications: { taskIds: watched.map((watch) => watch.taskId) } });
  let open = watched.length;
  for (const { socket } of watched) {
    sockets.push(socket);
    socket.accept();
    socket.addEventListener('message', (event) => send('notifications/tasks', JSON.parse(String(event.data)) as Record<string, unknown>));
    socket.addEventListener('close', () => {
      if (--open === 0) stream.close();
    });
  }
  if (open === 0) stream.close();
  return stream.response;
}
