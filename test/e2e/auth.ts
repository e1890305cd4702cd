import { inject } from 'vitest';

/** The local development key of the `npm run dev` under test, as every client sends it. */
export const authHeaders = { authorization: `Bearer ${inject('apiKey')}` };
/** For the SDK's client transports: their POSTs and their SSE GETs carry it. */
export const withKey = { requestInit: { headers: authHeaders } };
