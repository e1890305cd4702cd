import { describe, expect, it } from 'vitest';
import { answered, execution, fixture, saved, summaryOf, validateAnswer, validation, type Json } from './answers';
import { drawnEdges, drawnNodes, LOOKS as table, showCall, viewPerFile } from './viewPage';
const STICKY = 'n8n-nodes-base.stickyNote';

const view = viewPerFile();

/** n8n's connection map as "from type[output] → to [input]" lines. */
const connectionLines = (workflow: Json): string[] =>
  Object.entries(workflow.connections as Json)
    .flatMap(([from, byType]) =>
      Object.entries(byType as Json).flatMap(([type, outputs]) =>
        (outputs as ({ node: string; index: number }[] | null)[]).flatMap((targets, output) =>
          (targets ?? []).map((t) => `${from} ${type}[${output}] → ${t.node} [${t.index}]`),
        ),
      ),
    )
    .sort();

const showWorkflow = (workflow: Json, id = 'wf1') =>
  showCall(view.session, { tool: { name: 'get_workflow' }, args: { id }, result: answered(saved(workflow, id)) });

describe('drawWorkflow: a real workflow', () => {
  it('draws every node where n8n puts it, every connection between the ports it names', async () => {
    const workflow = fixture('39');
    const frame = await showWorkflow(workflow);
    const nodes = (workflow.nodes as Json[]).filter((n) => n.type !== STICKY);
    const drawn = await drawnNodes(frame);
    expect(drawn.map((n) => [n.name, n.type])).toEqual(nodes.map((n) => [n.name, n.type]));
    expect(drawn.map((n) => n.label)).toEqual(nodes.map((n) => n.name));
    expect(await frame.locator('body').getAttribute('data-drawn')).toBe(String((workflow.nodes as Json[]).length));
    // The node's body has its top-left corner at n8n's position, whatever its shape.
    const corners = await frame.evaluate(() =>
      [...document.querySelectorAll<SVGGElement>('g.node')].map((g) => {
        const box = g.querySelector<SVGGraphicsElement>('.body')!.getBBox();
        return [g.dataset.name, Math.round(box.x), Math.round(box.y)];
      }),
    );
    expect(corners).toEqual(nodes.map((n) => [n.name, n.position[0], n.position[1]]));
    const edges = await drawnEdges(frame);
    expect(edges.map((e) => `${e.from} ${e.type}[${e.output}] → ${e.to} [${e.input}]`).sort()).toEqual(connectionLines(workflow));
    expect(edges.some((e) => e.ai || e.ran || e.dashed)).toBe(false);
    // Connections under the nodes: drawn first.
    expect(await frame.evaluate(() => [...document.querySelector('g.version')!.children].map((g) => g.getAttribute('class')))).toEqual([
      'stickies',
      'edges',
      'edge-labels',
      'nodes',
    ]);
  });

  it('gives each node its shape: triggers, an agent as a root with its AI ports labelled, its sub-nodes as circles', async () => {
    const frame = await showWorkflow(fixture('34'));
    const shapes = Object.fromEntries((await drawnNodes(frame)).map((n) => [n.name, n.shape]));
    expect(shapes).toEqual({
      'Ask Endpoint': 'trigger',
      'Shop Assistant': 'root',
      'OpenAI Chat Model': 'subnode',
      'Conversation Memory': 'subnode',
      'Shipping Cost': 'subnode',
      'Order Status API': 'subnode',
      'Product Search': 'subnode',
      Reply: 'node',
    });
    expect(await frame.locator('g.node[data-name="Shop Assistant"] text.port-label').allTextContents()).toEqual(['Model', 'Memory', 'Tool']);
    expect(await frame.locator('g.node[data-shape="subnode"] circle.body').count()).toBe(5);
    expect(await frame.locator('g.node[data-shape="subnode"] .port.in, g.node[data-shape="trigger"] .port.in').count()).toBe(0);
  });

  it('names the outputs of a node with several: an If’s true and false', async () => {
    const workflow = fixture('05');
    const frame = await showWorkflow(workflow);
    for (const node of workflow.nodes.filter((n: Json) => n.type === 'n8n-nodes-base.if')) {
      expect(await frame.locator(`g.node[data-name="${node.name}"] text.port-label.out`).allTextContents()).toEqual(['true', 'false']);
    }
    expect(workflow.nodes.some((n: Json) => n.type === 'n8n-nodes-base.if')).toBe(true);
  });

  it('draws AI connections dashed, main ones solid', async () => {
    for (const prefix of ['34', '36']) {
      const workflow = fixture(prefix);
      const frame = await showWorkflow(workflow);
      const edges = await drawnEdges(frame);
      expect(edges.length).toBe(connectionLines(workflow).length);
      for (const edge of edges) {
        expect(edge.ai, `${edge.from} → ${edge.to}`).toBe(edge.type !== 'main');
        expect(edge.dashed, `${edge.from} → ${edge.to}`).toBe(edge.type !== 'main');
      }
      expect(edges.filter((e) => e.ai).length).toBeGreaterThan(3);
    }
  });

  it('marks a deactivated node, and draws sticky notes under the nodes at their size, colour and text', async () => {
    const workflow = fixture('29');
    const frame = await showWorkflow(workflow);
    const drawn = await drawnNodes(frame);
    expect(drawn.filter((n) => n.disabled).map((n) => n.name)).toEqual(['Push To CRM']);
    expect(drawn.find((n) => n.disabled)!.typeLabel).toMatch(/^Deactivated · /);
    expect(await frame.locator('g.node[data-disabled]').evaluate((g) => getComputedStyle(g).opacity)).not.toBe('1');
    expect(
      await frame
        .locator('g.node:not([data-disabled])')
        .first()
        .evaluate((g) => getComputedStyle(g).opacity),
    ).toBe('1');
    const stickies = await frame.evaluate(() =>
      [...document.querySelectorAll<SVGGElement>('g.sticky')].map((g) => {
        const rect = g.querySelector('rect')!;
        return {
          name: g.dataset.name,
          color: g.dataset.color,
          width: Number(rect.getAttribute('width')),
          height: Number(rect.getAttribute('height')),
          text: g.querySelector('.sticky-text')!.textContent,
        };
      }),
    );
    expect(stickies).toEqual(
      (workflow.nodes as Json[])
        .filter((n) => n.type === STICKY)
        .map((n) => ({
          name: n.name,
          color: String(n.parameters.color ?? 1),
          width: n.parameters.width,
          height: n.parameters.height,
          text: n.parameters.content,
        })),
    );
    expect(await frame.locator('g.stickies g.sticky').count()).toBe(2);
  });

  it('draws each node with its icon when the node looks the page was given have one for its type, else its initials', async () => {
    for (const prefix of ['34', '36', '39', '28', '18']) {
      const frame = await showWorkflow(fixture(prefix));
      const drawn = await drawnNodes(frame);
      const symbols = await frame.evaluate(() =>
        [...document.querySelectorAll('#canvas defs symbol')].map((s) => ({ id: s.id, children: s.childElementCount, viewBox: s.getAttribute('viewBox') })),
      );
      for (const node of drawn) {
        const icon = Object.hasOwn(table.types, node.type) ? table.types[node.type]!.icon : undefined;
        if (icon === undefined) {
          expect(node.icon, node.name).toBeNull();
          expect(node.badge, node.name).toMatch(/^[A-Z0-9?]{1,2}$/);
        } else {
          expect(node.icon, node.name).toBe(`#icon-${icon}`);
          expect(node.badge, node.name).toBeNull();
          const symbol = symbols.filter((s) => s.id === `icon-${icon}`);
          expect(symbol, node.name).toHaveLength(1);
          expect(symbol[0]!.children, node.name).toBeGreaterThan(0);
          expect(symbol[0]!.viewBox, node.name).toBe(/viewBox="([^"]+)"/.exec(table.icons[icon]!)?.[1] ?? '0 0 24 24');
        }
      }
    }
  });
});

describe('drawWorkflow: what is laid over the nodes', () => {
  it('findings: the worst severity on each node, and how many', async () => {
    const workflow = fixture('39');
    workflow.nodes.find((n: Json) => n.name === 'Media Mail').typeVersion = 9;
    const result = validation(workflow);
    const frame = await showCall(view.session, { tool: { name: 'validate_workflow' }, args: { workflow }, result: validateAnswer(workflow) });
    const listed = [...(result.errors as Json[]).map((f) => [f.node, 'error']), ...(result.warnings as Json[]).map((f) => [f.node, 'warning'])];
    for (const node of await drawnNodes(frame)) {
      const own = listed.filter(([name]) => name === node.name).map(([, severity]) => severity);
      expect(node.findings, node.name).toBe(own.includes('error') ? 'error' : own.length ? 'warning' : null);
      expect(node.findingCount, node.name).toBe(own.length ? String(own.length) : null);
    }
    expect((await drawnNodes(frame)).filter((n) => n.findings !== null).length).toBeGreaterThan(1);
  });

  it('a run: each node’s status, the items on each connection it fed, nothing on the nodes that did not run', async () => {
    const run = execution('failed');
    const frame = await showCall(view.session, { tool: { name: 'get_execution' }, args: { id: '1', includeData: true }, result: answered(run) });
    const runData = run.data.resultData.runData;
    for (const node of await drawnNodes(frame)) {
      const ran = runData[node.name]?.[0];
      expect(node.run, node.name).toBe(ran ? (ran.error ? 'error' : 'success') : null);
      expect(node.runBadge, node.name).toBe(ran ? `run-badge ${ran.error ? 'error' : 'success'}` : null);
    }
    const edges = await drawnEdges(frame);
    const labels = await frame.evaluate(() =>
      [...document.querySelectorAll<SVGTextElement>('text.items')].map((t) => [t.dataset.from, t.dataset.to, t.textContent]),
    );
    for (const edge of edges) {
      const items = runData[edge.from]?.[0]?.data?.main?.[edge.output];
      expect(edge.ran, `${edge.from} → ${edge.to}`).toBe(Array.isArray(items) && items.length > 0);
    }
    expect(labels).toEqual([
      ['Hook', 'Split', '1 item'],
      ['Split', 'Check', '2 items'],
    ]);
  });

  it('a creation: every node marked added', async () => {
    const workflow = fixture('34');
    const frame = await showCall(view.session, { tool: { name: 'create_workflow' }, args: { workflow }, result: answered(summaryOf(workflow, 'new1')) });
    const drawn = await drawnNodes(frame);
    expect(drawn.map((n) => n.mark)).toEqual(drawn.map(() => 'added'));
    expect(await frame.locator('g.node text.mark.added').count()).toBe(drawn.length);
  });
});

describe('drawWorkflow: the workflow’s words are text, never markup', () => {
  it('nodes named as an object’s own properties ("constructor", "__proto__", "toString") are nodes like any other', async () => {
    const workflow = fixture('05');
    const names = ['constructor', '__proto__', 'toString'];
    workflow.nodes.slice(0, 3).forEach((node: Json, i: number) => {
      const json = JSON.stringify(workflow.connections).replaceAll(JSON.stringify(node.name), JSON.stringify(names[i]));
      workflow.connections = JSON.parse(json);
      node.name = names[i];
    });
    const findings = { valid: false, errors: names.map((node) => ({ node, code: 'missing_required', message: `${node} lacks x` })), warnings: [] };
    const frame = await showCall(view.session, { tool: { name: 'validate_workflow' }, args: { workflow }, result: answered(findings, true) });
    const drawn = await drawnNodes(frame);
    expect(drawn.map((n) => n.name)).toEqual(expect.arrayContaining(names));
    for (const name of names) expect(await frame.locator(`g.node[data-name="${name}"][data-findings="error"] .finding-badge text`).textContent()).toBe('1');
    // Connections are keyed by node names: read from an answer's text, as n8n sent them. (Arguments reach the view
    // through the host's bridge, whose schema check rebuilds objects and drops a "__proto__" key on the way.)
    expect(await drawnEdges(await showWorkflow(workflow))).toHaveLength(connectionLines(workflow).length);
  });

  it('a connection to input 2,000,000 draws no million ports: at most 32 a side, the connection on the last', async () => {
    const workflow = fixture('05');
    const [from, to] = [workflow.nodes[0].name, workflow.nodes[1].name];
    workflow.connections[from].main[0].push({ node: to, type: 'main', index: 2_000_000 });
    const frame = await showWorkflow(workflow);
    expect(await frame.locator(`g.node[data-name="${to}"] .port.in`).count()).toBe(32);
    expect(await frame.locator(`path.edge[data-to="${to}"][data-input="2000000"]`).count()).toBe(1);
  });

  it('a node named like an HTML tag, a sticky note and notes holding scripts: drawn as written, nothing runs', async () => {
    const dialogs: string[] = [];
    view.session.host.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const workflow = fixture('29');
    const hostile = '<img src=x onerror=alert(1)>';
    const quoted = '"><svg onload=alert(2)>';
    const note = '<script>alert(3)</script><img src=x onerror=alert(4)><b>bold</b>';
    const rename = (from: string, to: string) => {
      workflow.nodes.find((n: Json) => n.name === from).name = to;
      const json = JSON.stringify(workflow.connections).replaceAll(JSON.stringify(from), JSON.stringify(to));
      workflow.connections = JSON.parse(json);
    };
    rename('Lead Form', hostile);
    rename('Score Lead', quoted);
    workflow.nodes.find((n: Json) => n.name === quoted).notes = note;
    workflow.nodes.find((n: Json) => n.name === quoted).parameters.assignments.assignments[0].value = note;
    workflow.nodes.find((n: Json) => n.name === 'Sticky Note').parameters.content = note;
    workflow.nodes.push({ name: 'Odd type', type: '<b>x</b>.<i>y</i>', typeVersion: 1, position: [1100, 320], parameters: {} });
    const frame = await showCall(view.session, { tool: { name: 'validate_workflow' }, args: { workflow }, result: validateAnswer(workflow) });

    const drawn = await drawnNodes(frame);
    expect(drawn.map((n) => n.name)).toEqual(expect.arrayContaining([hostile, quoted, 'Odd type']));
    expect(drawn.find((n) => n.name === hostile)!.label).toBe(hostile);
    expect(await frame.locator('g.sticky[data-name="Sticky Note"] .sticky-text').textContent()).toBe(note);
    // Open the panels too: the name, the notes and the parameters are shown there.
    await frame
      .locator('g.node')
      .filter({ has: frame.locator(`text.name:text-is(${JSON.stringify(quoted)})`) })
      .click();
    expect(await frame.locator('#panel h2').textContent()).toBe(quoted);
    expect(await frame.locator('#panel .notes').textContent()).toBe(note);
    expect(await frame.locator('#panel section[data-section="parameters"] pre').textContent()).toContain(JSON.stringify(note));
    await frame.locator('#panel button.close').click();
    await frame.locator('g.node[data-name="Odd type"]').click();
    expect(await frame.locator('#panel .node-type').textContent()).toContain('<b>x</b>.<i>y</i>');

    const made = await frame.evaluate(() => ({
      images: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script:not([type="application/json"])').length,
      bold: document.querySelectorAll('b, i, svg svg').length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    }));
    expect(made).toEqual({ images: 0, scripts: 1, bold: 0, handlers: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dialogs).toEqual([]);
  });
});
