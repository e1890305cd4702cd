/**
 * Runs `then` when `signal` aborts, or now if it already has: an abort listener added afterwards never
 * runs. A batch holding a call and its own `notifications/cancelled` aborts the call's signal before
 * the call's handler starts.
 */
export function onAbort(signal: AbortSignal, then: () => void): void {
  if (signal.aborted) then();
  else signal.addEventListener('abort', then, { once: true });
}
