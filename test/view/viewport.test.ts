import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { answered, fixture, manyWorkflows, saved, type Json } from './answers';
import { screenBoxes, showCall, viewPerFile } from './viewPage';

const view = viewPerFile();

const show = (workflow: Json) => showCall(view.session, { tool: { name: 'get_workflow' }, args: { id: 'big' }, result: answered(saved(workflow, 'big')) });
const zoomLevel = async (frame: Frame) => Number((await frame.locator('#zoom-level').textContent())!.replace('%', '')) / 100;
/** The scale in the world's transform. */
const scale = async (frame: Frame) => Number(/scale\(([^)]+)\)/.exec((await frame.locator('#world').getAttribute('transform'))!)![1]);
const centre = (box: DOMRect) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
/** Where a point of the frame is on the page (for the mouse). */
async function onPage(frame: Frame, point: { x: number; y: number }) {
  const iframe = (await view.session.host.page.locator('iframe#view').boundingBox())!;
  // The iframe's border: its content starts 1px in.
  return { x: iframe.x + 1 + point.x, y: iframe.y + 1 + point.y };
}
/** Where the nodes are, to a tenth of a pixel. */
const places = (nodes: { name: string; box: DOMRect }[]) =>
  nodes.map(({ name, box }) => [name, ...[box.x, box.y, box.width, box.height].map((v) => Math.round(v * 10) / 10)]);
const settle = (frame: Frame) => frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));

describe('the viewport', () => {
  it('fit frames a workflow of 200 nodes and more: every node inside the canvas, below 100%, the space used', async () => {
    const workflow = manyWorkflows(200);
    expect((workflow.nodes as Json[]).filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length).toBeGreaterThanOrEqual(200);
    const frame = await show(workflow);
    const { canvas, nodes } = await screenBoxes(frame);
    expect(nodes.length).toBe((workflow.nodes as Json[]).filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length);
    for (const { name, box } of nodes) {
      expect(box.x, name).toBeGreaterThanOrEqual(canvas.x);
      expect(box.y, name).toBeGreaterThanOrEqual(canvas.y);
      expect(box.x + box.width, name).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(box.y + box.height, name).toBeLessThanOrEqual(canvas.y + canvas.height);
    }
    const level = await zoomLevel(frame);
    expect(level).toBeLessThan(1);
    expect(level).toBeCloseTo(await scale(frame), 2);
    // Framed, not just shrunk: the nodes span the canvas across or down, less its margins.
    const left = Math.min(...nodes.map((n) => n.box.x));
    const right = Math.max(...nodes.map((n) => n.box.x + n.box.width));
    const top = Math.min(...nodes.map((n) => n.box.y));
    const bottom = Math.max(...nodes.map((n) => n.box.y + n.box.height));
    expect(Math.max((right - left) / canvas.width, (bottom - top) / canvas.height)).toBeGreaterThan(0.7);
    await view.session.host.screenshot('view-200-nodes.png');
  });

  it('fit shows a small workflow at 100%, in the middle', async () => {
    const frame = await show(fixture('01'));
    expect(await zoomLevel(frame)).toBe(1);
    const { canvas, nodes } = await screenBoxes(frame);
    expect(nodes[0]!.box.width).toBeCloseTo(100, 0);
    const middle = (Math.min(...nodes.map((n) => n.box.x)) + Math.max(...nodes.map((n) => n.box.x + n.box.width))) / 2;
    expect(Math.abs(middle - (canvas.x + canvas.width / 2))).toBeLessThan(2);
  });

  it('zooms in and out by the buttons, about the middle of the canvas, within 1% and 400%', async () => {
    const frame = await show(fixture('39'));
    const before = await scale(frame);
    const { canvas, nodes } = await screenBoxes(frame);
    const middle = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
    await frame.locator('#zoom-in').click();
    expect(await scale(frame)).toBeCloseTo(before * 1.25, 5);
    expect(await zoomLevel(frame)).toBeCloseTo(before * 1.25, 2);
    const zoomed = (await screenBoxes(frame)).nodes;
    for (const [i, { box }] of zoomed.entries()) {
      const was = centre(nodes[i]!.box);
      const now = centre(box);
      expect(box.width).toBeCloseTo(nodes[i]!.box.width * 1.25, 1);
      // Each point moves away from the middle, by the factor.
      expect(now.x - middle.x).toBeCloseTo((was.x - middle.x) * 1.25, 0);
      expect(now.y - middle.y).toBeCloseTo((was.y - middle.y) * 1.25, 0);
    }
    await frame.locator('#zoom-out').click();
    expect(await scale(frame)).toBeCloseTo(before, 5);
    for (let i = 0; i < 30; i++) await frame.locator('#zoom-out').click();
    expect(await scale(frame)).toBeCloseTo(0.01, 5);
    expect(await frame.locator('#zoom-level').textContent()).toBe('1%');
    for (let i = 0; i < 40; i++) await frame.locator('#zoom-in').click();
    expect(await scale(frame)).toBeCloseTo(4, 5);
    expect(await frame.locator('#zoom-level').textContent()).toBe('400%');
  });

  it('the wheel zooms about the pointer: the node under it stays under it; with Shift it pans', async () => {
    const frame = await show(fixture('39'));
    const before = await scale(frame);
    const target = (await screenBoxes(frame)).nodes.find((n) => n.name === 'By Category')!;
    const pointer = await onPage(frame, centre(target.box));
    await view.session.host.page.mouse.move(pointer.x, pointer.y);
    await view.session.host.page.mouse.wheel(0, -200);
    await expect.poll(() => scale(frame)).toBeGreaterThan(before);
    await settle(frame);
    expect(await scale(frame)).toBeCloseTo(before * Math.exp(0.4), 3);
    const after = (await screenBoxes(frame)).nodes.find((n) => n.name === 'By Category')!;
    expect(centre(after.box).x).toBeCloseTo(centre(target.box).x, 0);
    expect(centre(after.box).y).toBeCloseTo(centre(target.box).y, 0);
    expect(after.box.width).toBeGreaterThan(target.box.width);

    const zoomedScale = await scale(frame);
    await view.session.host.page.keyboard.down('Shift');
    await view.session.host.page.mouse.wheel(0, 100);
    await view.session.host.page.keyboard.up('Shift');
    await settle(frame);
    const panned = (await screenBoxes(frame)).nodes.find((n) => n.name === 'By Category')!;
    expect(await scale(frame)).toBe(zoomedScale);
    expect(Math.abs(centre(panned.box).x - centre(after.box).x)).toBeCloseTo(100, 0);
    expect(centre(panned.box).y).toBeCloseTo(centre(after.box).y, 1);
  });

  it('a node clicked where the panel opens moves into the part of the canvas the panel leaves open', async () => {
    const frame = await show(fixture('39'));
    const k = await scale(frame);
    const { canvas, nodes } = await screenBoxes(frame);
    const rightmost = nodes.reduce((a, b) => (b.box.x > a.box.x ? b : a));
    expect(rightmost.name).toBe('Accept');
    await frame.locator('g.node[data-name="Accept"]').click();
    await expect.poll(() => frame.locator('#panel').getAttribute('data-node')).toBe('Accept');
    const panel = await frame.locator('#panel').evaluate((el) => JSON.parse(JSON.stringify(el.getBoundingClientRect())) as DOMRect);
    const moved = (await screenBoxes(frame)).nodes.find((n) => n.name === 'Accept')!.box;
    expect(rightmost.box.x + rightmost.box.width).toBeGreaterThan(panel.x);
    expect(moved.x + moved.width).toBeLessThanOrEqual(panel.x);
    expect(moved.x).toBeGreaterThanOrEqual(canvas.x);
    expect(moved.y).toBeCloseTo(rightmost.box.y, 0);
    expect(await scale(frame)).toBe(k);
    // A node already in the open part stays where it is: Accept, now.
    await frame.locator('#panel button.close').click();
    const still = (await screenBoxes(frame)).nodes;
    await frame.locator('g.node[data-name="Accept"]').click();
    await settle(frame);
    expect(places((await screenBoxes(frame)).nodes)).toEqual(places(still));
  });

  it('dragging the background pans; dragging from a node does not; fit frames it again', async () => {
    const frame = await show(fixture('39'));
    const { canvas, nodes } = await screenBoxes(frame);
    const k = await scale(frame);
    const from = await onPage(frame, { x: canvas.x + canvas.width - 15, y: canvas.y + 15 });
    await view.session.host.page.mouse.move(from.x, from.y);
    await view.session.host.page.mouse.down();
    await view.session.host.page.mouse.move(from.x - 120, from.y + 80, { steps: 4 });
    await view.session.host.page.mouse.up();
    await settle(frame);
    const moved = (await screenBoxes(frame)).nodes;
    for (const [i, { box }] of moved.entries()) {
      expect(box.x - nodes[i]!.box.x).toBeCloseTo(-120, 0);
      expect(box.y - nodes[i]!.box.y).toBeCloseTo(80, 0);
    }
    expect(await scale(frame)).toBe(k);

    const node = await onPage(frame, centre(moved.find((n) => n.name === 'Lines')!.box));
    await view.session.host.page.mouse.move(node.x, node.y);
    await view.session.host.page.mouse.down();
    await view.session.host.page.mouse.move(node.x + 60, node.y + 60, { steps: 4 });
    await view.session.host.page.mouse.up();
    await settle(frame);
    expect(places((await screenBoxes(frame)).nodes)).toEqual(places(moved));

    await frame.locator('#zoom-in').click();
    await frame.locator('#fit').click();
    await settle(frame);
    expect(places((await screenBoxes(frame)).nodes)).toEqual(places(nodes));
    expect(await scale(frame)).toBe(k);
  });
});
