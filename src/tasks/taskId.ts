import type { Env } from '../env';
import { isSessionId, newSessionId } from '../lib/sessionIds';

/** Task ids are minted like session ids: 256 random bits, so holding one is the only way to find the task. */
export const newTaskId = newSessionId;
export const isTaskId = isSessionId;

/** The task's Durable Object, addressed by its id. */
export const taskStub = (env: Env, taskId: string) => env.TASKS.get(env.TASKS.idFromName(taskId));
