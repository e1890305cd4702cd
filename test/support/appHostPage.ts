/**
 * The host page's script (bundled by test/support/appHost.ts for Chromium): mounts a view the way an MCP
 * Apps host does — an `<iframe sandbox="allow-scripts">` (no allow-same-origin) loading the view from
 * another origin — and drives it with the SDK's own host side, an `AppBridge` over a `PostMessageTransport`
 * bound to the iframe's window. What happens is posted back to the host server in order (/host/event);
 * the view's tools/call requests are answered by the Node side (/host/answer).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { HostEvent, MountRequest, ToolCall, TrafficEntry } from './appHost';

interface Mounted {
  id: number;
  iframe: HTMLIFrameElement;
  bridge: AppBridge;
  context: McpUiHostContext;
  stopListening: () => void;
}

let mounted: Mounted | undefined;

/** Events go to the host server one after the other, so Node records them in the order they happened. */
let delivery = Promise.resolve();
function emit(mount: number, event: HostEvent): void {
  const body = JSON.stringify({ mount, event });
  delivery = delivery
    .then(async () => void (await fetch('/host/event', { method: 'POST', body })))
    .catch((error: unknown) => console.error('test host: an event was not recorded', error));
}

function current(): Mounted {
  if (!mounted) throw new Error('test host: no view mounted');
  return mounted;
}

async function unmount(): Promise<void> {
  if (!mounted) return;
  const { bridge, iframe, stopListening } = mounted;
  mounted = undefined;
  stopListening();
  await bridge.close();
  iframe.remove();
}

/** `promise`, or a rejection with `message()` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Loads the view and resolves once it is initialized and the request's tool input and result are sent. */
export async function mount(request: MountRequest): Promise<void> {
  await unmount();
  const id = request.mountId;
  const dark = request.hostContext.theme === 'dark';
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  document.body.style.background = dark ? '#1e1e1e' : '#ffffff';

  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.title = request.tool.name;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.width = `${request.width}px`;
  iframe.style.height = `${request.height}px`;
  document.getElementById('host')!.append(iframe);
  const view = iframe.contentWindow!;

  // Everything the view posts, as posted (even what the transport would refuse as not JSON-RPC).
  const seen: string[] = [];
  const record = (event: MessageEvent) => {
    if (event.source !== view) return;
    const data = event.data as { method?: unknown; id?: unknown } | null;
    seen.push(typeof data?.method === 'string' ? data.method : `response ${String(data?.id)}`);
    emit(id, { kind: 'traffic', entry: { direction: 'view→host', message: event.data } satisfies TrafficEntry });
  };
  window.addEventListener('message', record);

  const transport = new PostMessageTransport(view, view);
  const send = transport.send.bind(transport);
  transport.send = async (...args: Parameters<PostMessageTransport['send']>) => {
    emit(id, { kind: 'traffic', entry: { direction: 'host→view', message: args[0] } });
    return send(...args);
  };

  const bridge = new AppBridge(null, { name: 'test-host', version: '1' }, request.hostCapabilities, { hostContext: request.hostContext });
  bridge.onerror = (error) => console.error(`test host: ${error.message}`);
  bridge.oncalltool = async (params) => {
    const call: ToolCall = { name: params.name, arguments: params.arguments ?? {} };
    const response = await fetch('/host/answer', { method: 'POST', body: JSON.stringify({ mount: id, call }) });
    const answer = (await response.json()) as { result?: CallToolResult; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result!;
  };
  bridge.onsizechange = (params) => {
    emit(id, { kind: 'sizechange', params });
    // As hosts do: the iframe takes the view's height, up to the container's maximum.
    if (params.height !== undefined) iframe.style.height = `${Math.min(params.height, request.height)}px`;
  };
  // Accepted and recorded (in the traffic): what a host offers besides tools/call.
  bridge.onopenlink = async () => ({});
  bridge.onmessage = async () => ({});
  bridge.onupdatemodelcontext = async () => ({});
  bridge.onloggingmessage = () => {};
  bridge.onrequestteardown = () => {};
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));

  await bridge.connect(transport);
  mounted = { id, iframe, bridge, context: request.hostContext, stopListening: () => window.removeEventListener('message', record) };
  iframe.src = request.viewUrl;

  await within(
    initialized,
    request.initializeTimeoutMs,
    () => `the view sent no ui/notifications/initialized within ${request.initializeTimeoutMs} ms; it sent: ${seen.join(', ') || 'nothing'}`,
  );
  if (request.args !== undefined) await bridge.sendToolInput({ arguments: request.args });
  if (request.result !== undefined) await bridge.sendToolResult(request.result);
}

export const sendToolInput = (args: Record<string, unknown>) => current().bridge.sendToolInput({ arguments: args });
export const sendToolInputPartial = (args: Record<string, unknown>) => current().bridge.sendToolInputPartial({ arguments: args });
export const sendToolResult = (result: CallToolResult) => current().bridge.sendToolResult(result);
export const sendToolCancelled = (reason?: string) => current().bridge.sendToolCancelled(reason === undefined ? {} : { reason });

/** Sends the view the fields that changed (ui/notifications/host-context-changed). */
export function setHostContext(changes: McpUiHostContext): void {
  const mount = current();
  mount.context = { ...mount.context, ...changes };
  mount.bridge.setHostContext(mount.context);
}

export const teardown = () => current().bridge.teardownResource({});
