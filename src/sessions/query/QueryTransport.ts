import {
  LATEST_PROTOCOL_VERSION,
  type AuthInfo,
  type InitializeResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type Transport,
} from '@modelcontextprotocol/server';
import { isResponse } from '../../protocol/jsonrpc';

/**
 * An in-process transport for one caller's requests that arrive with no client session, as in
 * `/mcp/sse`'s query mode: `request` hands a message to the server, with the caller's auth info, and
 * resolves with its response.
 */
export class QueryTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly waiting = new Map<string | number, (response: JSONRPCResponse) => void>();

  constructor(private readonly authInfo: AuthInfo) {}

  async start(): Promise<void> {}

  /** Initializes the server on the client's behalf, so the one request can be served. */
  async initialize(clientName: string): Promise<InitializeResult> {
    const response = await this.request({
      jsonrpc: '2.0',
      id: '__query_initialize__',
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: clientName, version: '0' } },
    });
    if (!('result' in response)) throw new Error('The server refused to initialize');
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' }, { authInfo: this.authInfo });
    return response.result as InitializeResult;
  }

  request(message: JSONRPCRequest): Promise<JSONRPCResponse> {
    return new Promise((resolve) => {
      this.waiting.set(message.id, resolve);
      this.onmessage?.(message, { authInfo: this.authInfo });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isResponse(message) || message.id === undefined) return;
    const resolve = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    resolve?.(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
