import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../src/tools/tool';
import { isMarkedRun, RUN_HEADER, triggerRequest, triggerUrl } from '../../../src/tools/n8n/trigger';

const BASE = 'https://n8n.example.com';
const RUN = 'run-0000-4000-8000-000000000001';
const webhook = (path: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'Webhook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  webhookId: '11111111-0000-4000-8000-000000000001',
  parameters: { path },
  ...extra,
});
const form = (options: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'Form',
  type: 'n8n-nodes-base.formTrigger',
  typeVersion: 2.2,
  webhookId: 'c0ffee00-0000-4000-8000-000000000001',
  parameters: { options },
  ...extra,
});

describe('where test_workflow calls a trigger', () => {
  it('builds the production URLs n8n serves', () => {
    expect(triggerUrl(BASE, webhook('orders')).href).toBe(`${BASE}/webhook/orders`);
    expect(triggerUrl(BASE, webhook('/orders/new')).href).toBe(`${BASE}/webhook/orders/new`);
    expect(triggerUrl(BASE, webhook('orders/:id')).href).toBe(`${BASE}/webhook/11111111-0000-4000-8000-000000000001/orders/test`);
    expect(triggerUrl(BASE, webhook('')).href).toBe(`${BASE}/webhook/11111111-0000-4000-8000-000000000001`);
    expect(triggerUrl(BASE, form({ path: 'signup' })).href).toBe(`${BASE}/form/signup`);
    expect(triggerUrl(BASE, form({})).href).toBe(`${BASE}/form/c0ffee00-0000-4000-8000-000000000001`);
    expect(triggerUrl(BASE, form({}, { typeVersion: 1, parameters: { path: 'old-form' } })).href).toBe(`${BASE}/form/old-form`);
    const chat = { name: 'Chat', type: '@n8n/n8n-nodes-langchain.chatTrigger', webhookId: 'c0ffee00-0000-4000-8000-000000000002', parameters: {} };
    expect(triggerUrl(BASE, chat).href).toBe(`${BASE}/webhook/c0ffee00-0000-4000-8000-000000000002/chat`);
    // An instance served under a path of its own keeps it.
    expect(triggerUrl('https://example.com/n8n', webhook('orders')).href).toBe('https://example.com/n8n/webhook/orders');
  });

  it('refuses a path that would leave /webhook/ or /form/, naming the trigger and the fix', () => {
    const escapes = [
      '../rest/settings',
      'a/../../rest/settings',
      '..',
      './x/../../rest',
      '%2e%2e/rest/settings',
      '%2E%2e%2frest',
      'a%2f..%2f..%2frest',
      '..\\rest\\settings',
      'a\\b',
      'x?y=../../rest',
      'x#/../../rest',
    ];
    for (const path of escapes) {
      expect(() => triggerUrl(BASE, webhook(path)), path).toThrow(ToolError);
      expect(() => triggerUrl(BASE, webhook(path)), path).toThrow(/trigger "Webhook".*not a path under n8n's \/webhook\/.*plain path/);
    }
    expect(() => triggerUrl(BASE, form({ path: '../rest/settings' }))).toThrow(/not a path under n8n's \/form\//);
    expect(() => triggerUrl(BASE, webhook('x/:id', { webhookId: '../../rest' }))).toThrow(ToolError);
    const chat = { name: 'Chat', type: '@n8n/n8n-nodes-langchain.chatTrigger', webhookId: '../../rest/settings', parameters: {} };
    expect(() => triggerUrl(BASE, chat)).toThrow(ToolError);
  });

  it('refuses a trigger with nothing to call it by', () => {
    expect(() => triggerUrl(BASE, webhook('', { webhookId: undefined }))).toThrow(/Give the node a path or a webhookId/);
    expect(() => triggerUrl(BASE, webhook('orders/:id', { webhookId: undefined }))).toThrow(/Give the node a path or a webhookId/);
  });
});

describe('what test_workflow sends a trigger', () => {
  const signUp = {
    name: 'Form',
    type: 'n8n-nodes-base.formTrigger',
    typeVersion: 2.2,
    webhookId: 'c0ffee00-0000-4000-8000-000000000001',
    parameters: { formFields: { values: [{ fieldLabel: 'Name' }, { fieldLabel: 'constructor' }, { fieldLabel: 'toString' }] } },
  };

  it('fills a form’s fields from the payload by label or by position, and only from what the payload holds', () => {
    const { body } = triggerRequest(new URL(`${BASE}/form/x`), signUp, { Name: 'Ada', 'field-2': 'third' }, RUN);
    expect([...(body as FormData).entries()]).toEqual([
      ['field-0', 'Ada'],
      ['field-2', 'third'],
    ]);
  });

  it('sends a GET webhook its payload as the query, any other method as a JSON body', () => {
    const url = new URL(`${BASE}/webhook/orders`);
    expect(triggerRequest(url, webhook('orders', { parameters: { path: 'orders', httpMethod: 'GET' } }), { total: 3, tags: ['a'] }, RUN)).toEqual({
      method: 'GET',
      headers: { [RUN_HEADER]: RUN },
    });
    expect(url.search).toBe('?total=3&tags=%5B%22a%22%5D');
    const post = triggerRequest(
      new URL(`${BASE}/webhook/orders`),
      webhook('orders', { parameters: { path: 'orders', httpMethod: 'POST' } }),
      { total: 3 },
      RUN,
    );
    expect(post).toMatchObject({ method: 'POST', body: '{"total":3}', headers: { [RUN_HEADER]: RUN, 'content-type': 'application/json' } });
  });

  it('reads a label or method that is not a string as none: no throw on an object String() cannot convert', () => {
    const unprintable = { toString: 1 };
    const form = { ...signUp, parameters: { formFields: { values: [{ fieldLabel: unprintable }, { fieldLabel: 'Name' }] } } };
    const { body } = triggerRequest(new URL(`${BASE}/form/x`), form, { 'field-0': 'by position', Name: 'Ada' }, RUN);
    expect([...(body as FormData).entries()]).toEqual([
      ['field-0', 'by position'],
      ['field-1', 'Ada'],
    ]);
    const url = new URL(`${BASE}/webhook/orders`);
    expect(triggerRequest(url, webhook('orders', { parameters: { path: 'orders', httpMethod: unprintable } }), { total: 3 }, RUN)).toMatchObject({
      method: 'GET',
    });
    expect(url.search).toBe('?total=3');
  });
});

describe('the mark of a test run', () => {
  const chat = {
    name: 'Chat',
    type: '@n8n/n8n-nodes-langchain.chatTrigger',
    typeVersion: 1.1,
    webhookId: 'c0ffee00-0000-4000-8000-000000000002',
    parameters: {},
  };
  const hook = webhook('orders', { parameters: { path: 'orders', httpMethod: 'POST' } });

  it("is found in a webhook's request headers and a chat's session id, as n8n keeps them in the trigger's item", () => {
    expect(isMarkedRun(hook, { headers: { [RUN_HEADER]: RUN }, body: {} }, RUN, {})).toBe(true);
    expect(isMarkedRun(hook, { headers: { [RUN_HEADER]: 'another run' } }, RUN, {})).toBe(false);
    expect(isMarkedRun(hook, { headers: {} }, RUN, {})).toBe(false);
    expect(isMarkedRun(hook, undefined, RUN, {})).toBe(false);
    const sent = JSON.parse(triggerRequest(new URL(`${BASE}/webhook/x/chat`), chat, { chatInput: 'hi' }, RUN).body as string);
    expect(sent).toMatchObject({ sessionId: RUN, chatInput: 'hi' });
    expect(isMarkedRun(chat, { sessionId: RUN, chatInput: 'hi' }, RUN, {})).toBe(true);
    expect(isMarkedRun(chat, { sessionId: 'mine' }, RUN, { sessionId: 'mine' })).toBe(true);
    expect(isMarkedRun(chat, { sessionId: RUN }, RUN, { sessionId: 'mine' })).toBe(false);
  });

  it('is not kept by a form: its run can only be told by when it started', () => {
    expect(isMarkedRun(form({}), { Name: 'Ada' }, RUN, {})).toBeUndefined();
  });
});
