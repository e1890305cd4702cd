import {
  LATEST_PROTOCOL_VERSION,
  McpUiInitializedNotificationSchema,
  McpUiInitializeRequestSchema,
  McpUiSizeChangedNotificationSchema,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { APPS_PROTOCOL_VERSION } from '../../src/view/bridge';
import { answered, fixture, saved } from './answers';
import { expectClean, showCall, status, viewPerFile } from './viewPage';

const view = viewPerFile({ clean: false });

const orders = fixture('39');
const title = (frame: Frame) => frame.locator('#title').textContent();
const fromView = () => view.session.host.traffic().filter((t) => t.direction === 'view→host');
/** Posts a message to the view from the host page (its parent), as a host would. */
const postToView = (message: unknown) =>
  view.session.host.page.evaluate((m) => (document.querySelector('iframe#view') as HTMLIFrameElement).contentWindow!.postMessage(m, '*'), message as object);

describe('the bridge, against the SDK’s own host side (AppBridge)', () => {
  it('initializes as MCP Apps says: ui/initialize, then initialized, then its size', async () => {
    await view.session.host.mount({ html: view.session.html, tool: { name: 'get_workflow' } });
    await expect.poll(() => view.session.host.sizeChanges()).toEqual([{ height: 560 }]);
    const sent = fromView().map((t) => t.message);
    expect(sent.map((m) => m.method)).toEqual(['ui/initialize', 'ui/notifications/initialized', 'ui/notifications/size-changed']);
    const initialize = McpUiInitializeRequestSchema.parse(sent[0]);
    expect(APPS_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
    expect(initialize.params).toMatchObject({
      protocolVersion: LATEST_PROTOCOL_VERSION,
      appInfo: { name: expect.any(String), version: expect.any(String) },
      appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
    });
    expect(sent[0].id).toBeDefined();
    McpUiInitializedNotificationSchema.parse(sent[1]);
    expect(McpUiSizeChangedNotificationSchema.parse(sent[2]).params).toEqual({ height: 560 });
    // The host sized its frame to it.
    expect(await view.session.host.page.locator('iframe#view').evaluate((f) => (f as HTMLIFrameElement).clientHeight)).toBe(560);
    // The host answered with the version it speaks.
    const answer = view.session.host.traffic().find((t) => t.direction === 'host→view' && t.message.id === sent[0].id)!.message;
    expect(answer.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    await expectClean(view.session.host);
  });

  it('draws once it has the tool input and then the result, for the tool the host context names', async () => {
    await view.session.host.mount({ html: view.session.html, tool: { name: 'get_workflow' } });
    const frame = view.session.host.frame();
    expect(await title(frame)).toBe('Workflow');
    expect(await frame.locator('body').getAttribute('data-drawn')).toBeNull();
    await view.session.host.sendToolInput({ id: 'wf39' });
    await frame.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await frame.locator('body').getAttribute('data-drawn')).toBeNull();
    await view.session.host.sendToolResult(answered(saved(orders, 'wf39')));
    await expect.poll(() => title(frame)).toBe(`Workflow: ${orders.name}`);
    expect(await frame.locator('body').getAttribute('data-drawn')).toBe(String(orders.nodes.length));
    // The input given is what its actions use.
    expect(await frame.locator('#actions button[data-action="run_workflow_tests"]').count()).toBe(1);
    await expectClean(view.session.host);
  });

  it('takes the host’s theme, at first and when it changes', async () => {
    await view.session.host.mount({ html: view.session.html, tool: { name: 'get_workflow' }, theme: 'dark' });
    const theme = () => view.session.host.frame().locator('html').getAttribute('data-theme');
    expect(await theme()).toBe('dark');
    const background = () =>
      view.session.host
        .frame()
        .locator('#canvas')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    const dark = await background();
    await view.session.host.setHostContext({ theme: 'light' });
    await expect.poll(theme).toBe('light');
    expect(await background()).not.toBe(dark);
    await view.session.host.setHostContext({ theme: 'dark' });
    await expect.poll(theme).toBe('dark');
    // The host records its messages as it sends them, a little after: polled.
    await expect.poll(() => view.session.host.traffic().filter((t) => t.message?.method === 'ui/notifications/host-context-changed').length).toBe(2);
    await expectClean(view.session.host);
  });

  it('answers ping and teardown; a request it does not serve gets "method not found"; a notification it does not know, nothing', async () => {
    await view.session.host.mount({ html: view.session.html, tool: { name: 'get_workflow' } });
    await expect(view.session.host.teardown()).resolves.toEqual({});
    const responses = (id: string) => fromView().filter((t) => t.message?.id === id && t.message?.method === undefined);
    await postToView({ jsonrpc: '2.0', id: 'probe-ping', method: 'ping', params: {} });
    await postToView({ jsonrpc: '2.0', id: 'probe-unknown', method: 'ui/open-the-pod-bay-doors', params: {} });
    await postToView({ jsonrpc: '2.0', method: 'ui/notifications/something-new', params: {} });
    await expect.poll(() => responses('probe-unknown').length).toBe(1);
    expect(responses('probe-unknown')[0]!.message.error).toMatchObject({ code: -32601 });
    expect(responses('probe-ping')[0]!.message).toEqual({ jsonrpc: '2.0', id: 'probe-ping', result: {} });
    await view.session.host.frame().evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    const methods = fromView().map((t) => t.message.method ?? `response ${t.message.id}`);
    expect(methods.filter((m) => !m.startsWith('ui/') && !m.startsWith('response'))).toEqual([]);
    // The host's bridge is told of responses it did not ask for (the probes'): its complaint, not the view's.
    expect(view.session.host.consoleErrors().filter((e) => e.startsWith('view:'))).toEqual([]);
    expect(view.session.host.cspViolations()).toEqual([]);
  });

  it('listens to its host only: a message the view’s own window posts is ignored', async () => {
    const frame = await showCall(view.session, { tool: { name: 'get_workflow' }, args: { id: 'wf39' }, result: answered(saved(orders, 'wf39')) });
    await frame.evaluate(
      (text) => window.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text }] } }, '*'),
      JSON.stringify(saved(fixture('01'), 'forged')),
    );
    await frame.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(await title(frame)).toBe(`Workflow: ${orders.name}`);
    await expectClean(view.session.host);
  });

  it('says so when the call is cancelled', async () => {
    await view.session.host.mount({ html: view.session.html, tool: { name: 'test_workflow' }, args: { id: 'wf39' } });
    await view.session.host.sendToolCancelled('the user stopped it');
    await expect.poll(() => status(view.session.host.frame())).toEqual({ text: 'The call was cancelled: the user stopped it.', kind: 'error' });
    await expectClean(view.session.host);
  });

  it('a tools/call the host answers with a JSON-RPC error: its words in the status, the buttons usable again', async () => {
    const frame = await showCall(view.session, {
      tool: { name: 'get_workflow' },
      args: { id: 'wf39' },
      result: answered(saved(orders, 'wf39')),
      answer: () => {
        throw new Error('the host lost its connection to the server');
      },
    });
    await frame.locator('#actions button[data-action="run_workflow_tests"]').click();
    await expect.poll(() => status(frame)).toEqual({ text: 'Run the saved tests: the host lost its connection to the server', kind: 'error' });
    expect(view.session.host.calls()).toEqual([{ name: 'run_workflow_tests', arguments: { id: 'wf39' }, error: 'the host lost its connection to the server' }]);
    expect(await frame.locator('#actions button[data-action="run_workflow_tests"]').isEnabled()).toBe(true);
    // The drawing stays.
    expect(await title(frame)).toBe(`Workflow: ${orders.name}`);
    await expectClean(view.session.host);
  });
});
