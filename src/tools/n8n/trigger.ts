import { own } from '../../lib/ownKeys';
import { isPlainObject } from '../../workflows/values';
import { ToolError } from '../tool';

/** Triggers n8n serves at a URL of its own, and how each is called. */
const CALLABLE = new Map<string, TriggerKind>([
  ['n8n-nodes-base.webhook', 'webhook'],
  ['n8n-nodes-base.formTrigger', 'form'],
  ['@n8n/n8n-nodes-langchain.chatTrigger', 'chat'],
]);

export type TriggerKind = 'webhook' | 'form' | 'chat';

export type TriggerNode = Record<string, unknown> & {
  name: string;
  type: string;
  parameters?: Record<string, unknown>;
  webhookId?: unknown;
  disabled?: boolean;
};

/** Whether n8n serves this node at a URL test_workflow can call, and how. */
export const triggerKind = (node: TriggerNode): TriggerKind | undefined => CALLABLE.get(node.type);

/**
 * What a path under n8n's /webhook/ or /form/ may not contain: a "." or ".." segment, a backslash
 * (which URL parsers read as "/"), a dot, slash or backslash written percent-encoded, or "?" and "#"
 * (which would end the path). Any of them could take the request out from under the prefix.
 */
const ESCAPES = [/(^|\/)\.\.?(\/|$)/, /\\/, /%(2e|2f|5c)/i, /[?#]/];

/**
 * The production URL n8n serves a trigger at (n8n builds it the same way): `/webhook/<path>`, where a
 * path with parameters (`:id`) lives under the webhookId; `/form/<options.path, or the path of a v1
 * form, or the webhookId>`; `/webhook/<webhookId>/chat`. The path comes from the workflow, which its
 * author wrote: it must stay under the prefix (a Webhook with the path "../rest/settings" fetched n8n's
 * settings), or the call is refused before anything is sent.
 */
export function triggerUrl(base: string, node: TriggerNode): URL {
  const kind = triggerKind(node);
  if (!kind) throw new Error(`${node.type} is not a trigger n8n serves at a URL`);
  const parameters = node.parameters ?? {};
  const webhookId = typeof node.webhookId === 'string' ? node.webhookId : '';
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  let prefix: '/webhook/' | '/form/' = '/webhook/';
  let path: string;
  if (kind === 'chat') {
    path = webhookId && `${webhookId}/chat`;
  } else if (kind === 'form') {
    prefix = '/form/';
    const options = isPlainObject(parameters.options) ? parameters.options : {};
    path = text(own(options, 'path')) || (Number(node.typeVersion) < 2 ? text(parameters.path) : '') || webhookId;
  } else {
    const declared = text(parameters.path) || webhookId;
    path = declared.includes(':') ? webhookId && `${webhookId}/${declared.replace(/^\/+/, '').replace(/:(\w+)/g, 'test')}` : declared;
  }
  path = path.replace(/^\/+/, '');
  const root = new URL(base);
  const under = `${root.pathname.replace(/\/+$/, '')}${prefix}`;
  const url = new URL(`${root.origin}${under}${path}`);
  if (!path || ESCAPES.some((escape) => escape.test(path)) || url.origin !== root.origin || !url.pathname.startsWith(under)) {
    throw new ToolError(
      `The trigger "${node.name}" would be called at "${prefix}${path}", which is not a path under n8n's ${prefix}: ` +
        `".." and "." segments, backslashes, percent-encoded dots or slashes, "?" and "#" are refused. ` +
        (path ? 'Give the node a plain path (e.g. "orders" or "orders/new") with update_workflow or edit_workflow.' : 'Give the node a path or a webhookId.'),
    );
  }
  return url;
}

/** The request header that tells test_workflow's run apart from every other run of the workflow (n8n's Webhook node keeps it in its output). */
export const RUN_HEADER = 'x-mcp-test-run';

/**
 * What test_workflow sends a trigger: a form its fields as multipart form data (`field-0`, … in the
 * form's order, found by their labels in the payload), a chat a message, a webhook the payload as its
 * query (GET, HEAD: added to `url`) or JSON body. Labels are the workflow's, keys the caller's: only
 * the payload's own keys count (a field labelled "constructor" is not Object's). The run is marked with
 * `runId` where n8n keeps the mark in the execution: a webhook's request header, a chat's session id
 * (unless the payload names one); a form keeps only its fields.
 */
export function triggerRequest(url: URL, node: TriggerNode, payload: Record<string, unknown>, runId: string): RequestInit {
  const parameters = node.parameters ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  switch (triggerKind(node)) {
    case 'chat': {
      const chatInput = text(own(payload, 'chatInput') ?? own(payload, 'message') ?? '');
      return {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'sendMessage', sessionId: runId, ...payload, chatInput }),
      };
    }
    case 'form': {
      const fields = isPlainObject(parameters.formFields) && Array.isArray(parameters.formFields.values) ? parameters.formFields.values : [];
      const form = new FormData();
      fields.forEach((field, i) => {
        const label = isPlainObject(field) && typeof field.fieldLabel === 'string' ? field.fieldLabel : '';
        const value = own(payload, label) ?? own(payload, `field-${i}`);
        if (value !== undefined) form.set(`field-${i}`, text(value));
      });
      return { method: 'POST', body: form };
    }
    default: {
      const method = typeof parameters.httpMethod === 'string' ? parameters.httpMethod.toUpperCase() : 'GET';
      const headers = { [RUN_HEADER]: runId };
      if (method !== 'GET' && method !== 'HEAD') return { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) };
      for (const [key, value] of Object.entries(payload)) url.searchParams.set(key, text(value));
      return { method, headers };
    }
  }
}

/**
 * Whether an execution is the run test_workflow marked with `runId` (triggerRequest): the trigger's
 * first item carries the mark. Undefined for a trigger that keeps no mark (a form), whose run can only
 * be told by when it started.
 */
export function isMarkedRun(node: TriggerNode, firstItem: unknown, runId: string, payload: Record<string, unknown>): boolean | undefined {
  const json = isPlainObject(firstItem) ? firstItem : {};
  switch (triggerKind(node)) {
    case 'webhook': {
      const headers = isPlainObject(json.headers) ? json.headers : {};
      return own(headers, RUN_HEADER) === runId;
    }
    case 'chat':
      return json.sessionId === (own(payload, 'sessionId') ?? runId);
    default:
      return undefined;
  }
}
