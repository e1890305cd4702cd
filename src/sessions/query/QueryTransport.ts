import { LATEST_PROTOCOL_VERSION, type InitializeResult, type JSONRPCMessage, type JSONRPCRequest, type JSONRPCResponse, type Transport } from '@modelcontextprotocol/server';

/**
 * An in-process transport for requests that arrive one at a time with no client session, as in
 * `/mcp/sse`'s query mode: `request` hands a message to the server and resolves with its response.
 */
export class OneShotTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly waiting = new Map<string | number, (response: JSONRPCResponse) => void>();

  async start(): Promise<void> {}

  /** Initializes the server on the client's behalf, so the one request can be served. */
  async initialize(clientName: string): Promise<InitializeResult> {
    const response = await this.request({
      jsonrpc: '2.0',
      id: '__oneshot_initialize__',
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: clientName, version: '0' } },
    });
    if (!('result' in response)) throw new Error('The server refused to initialize');
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result as InitializeResult;
  }

  request(message: JSONRPCRequest): Promise<JSONRPCResponse> {
    return new Promise((resolve) => {
      this.waiting.set(message.id, resolve);
      this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || message.id === undefined || !('result' in message || 'error' in message)) return;
    const resolve = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    resolve?.(message as JSONRPCResponse);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
