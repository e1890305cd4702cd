/**
 * What the object that owes a queued call's answer (a session's, a task's) keeps for the consumer that
 * runs the call, in its own storage, so it outlives the object's eviction:
 *
 * - the call's input, when it is too large for a queue message (Cloudflare Queues takes 128 KB a
 *   message, a request body may be 4 MiB): in pieces under the per-value limit of SQLite-backed
 *   objects (2 MB; local workerd does not enforce it, Cloudflare does);
 * - for a task's run, that it began its side effect (ToolContext.beginSideEffect): a later attempt of
 *   the same message (a retry, a redelivery after the consumer died) finds it and answers "outcome
 *   unknown" instead of making the change again. A session keeps this on the pending call itself
 *   (src/sessions/PendingCalls.ts), which it reads anyway.
 *
 * All of it goes when the call is answered (forgetCall).
 */

/** What a queued tool runs on: its arguments, and a task's answers to its earlier input requests. */
export interface CallInput {
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
}

/** A queued call as its owner tells the consumer that picks it up (null once the call is answered). */
export interface QueuedCall {
  /** Its input, when the consumer asked for it (the message said inputStored). */
  input?: CallInput;
  /** An earlier run began to change something: whether it did is not known. */
  sideEffectBegan: boolean;
}

/** Input up to this size travels in the message; the rest of the message and the queue's own encoding fit well beside it. */
const INLINE_INPUT_BYTES = 64 * 1024;
/** Half the per-value limit of SQLite-backed Durable Object storage. */
const PIECE_BYTES = 1024 * 1024;

const prefix = (callId: string) => `call:${callId}:`;
const inputKey = (callId: string) => `${prefix(callId)}input`;
const pieceKey = (callId: string, piece: number) => `${prefix(callId)}input:${piece}`;
const sideEffectKey = (callId: string) => `${prefix(callId)}sideEffect`;

/** The input as stored and sent: UTF-8 JSON. */
const encode = (input: CallInput) => new TextEncoder().encode(JSON.stringify(input));

/** Whether the input is too large to travel in a queue message. */
export const tooLargeForMessage = (input: CallInput): boolean => encode(input).byteLength > INLINE_INPUT_BYTES;

export async function keepInput(storage: DurableObjectStorage, callId: string, input: CallInput): Promise<void> {
  const bytes = encode(input);
  const pieces = Array.from({ length: Math.ceil(bytes.byteLength / PIECE_BYTES) }, (_, piece) => bytes.slice(piece * PIECE_BYTES, (piece + 1) * PIECE_BYTES));
  await storage.put(Object.fromEntries([[inputKey(callId), pieces.length], ...pieces.map((bytes, piece) => [pieceKey(callId, piece), bytes])]));
}

/** The input kept for the call; undefined when none is (never kept, or the call was answered and it went). */
export async function loadInput(storage: DurableObjectStorage, callId: string): Promise<CallInput | undefined> {
  const count = await storage.get<number>(inputKey(callId));
  if (count === undefined) return undefined;
  const keys = Array.from({ length: count }, (_, piece) => pieceKey(callId, piece));
  const stored = await storage.get<Uint8Array>(keys);
  const pieces = keys.map((key) => stored.get(key)!);
  const bytes = new Uint8Array(pieces.reduce((total, piece) => total + piece.byteLength, 0));
  pieces.reduce((offset, piece) => (bytes.set(piece, offset), offset + piece.byteLength), 0);
  return JSON.parse(new TextDecoder().decode(bytes)) as CallInput;
}

export async function markSideEffect(storage: DurableObjectStorage, callId: string): Promise<void> {
  await storage.put(sideEffectKey(callId), Date.now());
}

export async function sideEffectBegan(storage: DurableObjectStorage, callId: string): Promise<boolean> {
  return (await storage.get(sideEffectKey(callId))) !== undefined;
}

/** Deletes everything kept for the call: it has been answered. */
export async function forgetCall(storage: DurableObjectStorage, callId: string): Promise<void> {
  const keys = [...(await storage.list({ prefix: prefix(callId) })).keys()];
  if (keys.length > 0) await storage.delete(keys);
}
