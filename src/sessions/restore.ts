import type { InitializeRequestParams, JSONRPCMessage } from '@modelcontextprotocol/server';

/** Request id of a replayed initialize; the server's answer to it is dropped by the transports. */
const RESTORE_ID = '__restore_initialize__';

/**
 * Brings a fresh SDK server (in an object that was evicted) back to the client's session: the
 * client's initialize is replayed into it, restoring protocol version and client capabilities.
 */
export function replayInitialize(onmessage: ((message: JSONRPCMessage) => void) | undefined, params: InitializeRequestParams): void {
  onmessage?.({ jsonrpc: '2.0', id: RESTORE_ID, method: 'initialize', params });
}

export const isRestoreReply = (message: JSONRPCMessage): boolean => 'id' in message && message.id === RESTORE_ID;
