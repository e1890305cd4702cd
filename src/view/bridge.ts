/**
 * The view's side of MCP Apps (SEP-1865): JSON-RPC 2.0 over postMessage with the host that framed it.
 * The SDK's App class speaks the same protocol but weighs 147 KB gzipped with its dependencies, more
 * than this whole view; these few messages are all the view needs (docs/workflow-view.md). The
 * host's own bridge (the SDK's AppBridge) is what the browser tests hold it to.
 */

/** The version of the MCP Apps protocol this view speaks. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the host says about itself and the call that opened the view. */
interface HostContext {
  toolInfo?: { tool?: { name?: string } };
  theme?: 'light' | 'dark';
}

export interface Bridge {
  /** The host's context, as it answered ui/initialize (and changed since). */
  context: HostContext;
  /** Whether the host passes the view's tool calls on to the server (it declared `serverTools`). */
  callsTools: boolean;
  /** Calls a tool of this server through the host: the caller's scopes, policies and limits apply as to any call. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Tells the host how tall the view wants to be. */
  sizeChanged(height: number): void;
}

export interface BridgeEvents {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  toolCancelled(reason: string | undefined): void;
  contextChanged(context: HostContext): void;
}

type Message = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message?: string } };

/** Connects to the host: ui/initialize, then ui/notifications/initialized; resolves once the host answered. */
export function connect(events: BridgeEvents, host: Window = window.parent): Promise<Bridge> {
  let nextId = 1;
  const pending = new Map<number | string, { resolve(value: unknown): void; reject(error: Error): void }>();
  const send = (message: Omit<Message, 'jsonrpc'>) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  const bridge: Bridge = {
    context: {},
    callsTools: false,
    callTool: async (name, args) => (await request('tools/call', { name, arguments: args })) as ToolResult,
    sizeChanged: (height) => send({ method: 'ui/notifications/size-changed', params: { height } }),
  };

  window.addEventListener('message', (event: MessageEvent) => {
    // Only the frame's host speaks to the view.
    if (event.source !== host) return;
    const message = event.data as Message;
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message ?? 'The host refused the request'));
      else waiting.resolve(message.result);
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case 'ui/notifications/tool-input':
        events.toolInput((params.arguments as Record<string, unknown> | undefined) ?? {});
        break;
      case 'ui/notifications/tool-result':
        events.toolResult(params as ToolResult);
        break;
      case 'ui/notifications/tool-cancelled':
        events.toolCancelled(typeof params.reason === 'string' ? params.reason : undefined);
        break;
      case 'ui/notifications/host-context-changed':
        bridge.context = { ...bridge.context, ...(params as HostContext) };
        events.contextChanged(bridge.context);
        break;
      case 'ui/resource-teardown':
        if (message.id !== undefined) send({ id: message.id, result: {} });
        break;
      case 'ping':
        if (message.id !== undefined) send({ id: message.id, result: {} });
        break;
      default:
        // A request the view does not serve gets JSON-RPC's "method not found"; a notification is dropped.
        if (message.id !== undefined)
          host.postMessage({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }, '*');
    }
  });

  return request('ui/initialize', {
    appInfo: { name: 'n8n-mcp-edge workflow view', version: '1' },
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
    protocolVersion: APPS_PROTOCOL_VERSION,
  }).then((result) => {
    const answer = result as { hostContext?: HostContext; hostCapabilities?: { serverTools?: unknown } };
    bridge.context = answer.hostContext ?? {};
    bridge.callsTools = answer.hostCapabilities?.serverTools !== undefined;
    send({ method: 'ui/notifications/initialized', params: {} });
    return bridge;
  });
}
