import { afterEach, describe, expect, it, vi } from 'vitest';
import { withNodeLooks, type NodeLooks } from '../../src/catalog/nodeLooks';
import { allFixtures, nodeLooks, type Json } from './answers';

/**
 * nodeLook reads the looks from the page's JSON block, as the server puts it there (withNodeLooks): here
 * the page is a stand-in `document` holding that block's text, and the module is loaded fresh for each
 * page (it keeps the table it read).
 */
const EMPTY_ICON = '<svg viewBox="0 0 24 24"></svg>';

/** The text of the block withNodeLooks puts into a page. */
function blockText(looks: NodeLooks): string {
  const page = withNodeLooks('<body><!--node-looks--><script>/*view*/</script></body>', looks);
  const match = /<script type="application\/json" id="node-looks">(.*?)<\/script>/s.exec(page);
  if (!match) throw new Error('no node-looks block');
  return match[1]!;
}

/** nodeLook and iconMarkup of a fresh module on a page with this block text (none: no block). */
async function onPage(text: string | undefined) {
  const getElementById = vi.fn((id: string) => (id === 'node-looks' && text !== undefined ? { textContent: text } : null));
  vi.stubGlobal('document', { getElementById });
  vi.resetModules();
  const module = await import('../../src/view/nodeLook');
  return { ...module, getElementById };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const looks = nodeLooks();

describe('nodeLook, with the looks the server put into the page', () => {
  it('gives every type of the table its name, its colour (when it has one) and its icon', async () => {
    const { nodeLook, iconMarkup } = await onPage(blockText(looks));
    for (const [type, look] of Object.entries(looks.types)) {
      expect(nodeLook(type), type).toEqual({
        name: look.name,
        ...(look.color ? { color: look.color } : {}),
        ...(look.icon === undefined ? {} : { icon: look.icon }),
      });
      if (look.icon !== undefined) expect(iconMarkup(look.icon), type).toBe(looks.icons[look.icon]);
    }
    expect(Object.values(looks.types).some((l) => l.icon !== undefined)).toBe(true);
  });

  it('reads the block once', async () => {
    const { nodeLook, iconMarkup, getElementById } = await onPage(blockText(looks));
    nodeLook('n8n-nodes-base.webhook');
    nodeLook('n8n-nodes-base.if');
    iconMarkup(0);
    expect(getElementById).toHaveBeenCalledTimes(1);
  });

  it('reads back what the server escaped: a name with "</script>" in it', async () => {
    const hostile: NodeLooks = { about: 'x', types: { 'n8n-nodes-evil.x': { name: '</script><img src=x onerror=alert(1)>', color: '#ff0000' } }, icons: [] };
    const text = blockText(hostile);
    expect(text).not.toContain('<');
    const { nodeLook } = await onPage(text);
    expect(nodeLook('n8n-nodes-evil.x')).toEqual({ name: '</script><img src=x onerror=alert(1)>', color: '#ff0000' });
  });

  it('names a type the table lacks from its own words, with no colour and no icon', async () => {
    const { nodeLook } = await onPage(blockText(looks));
    for (const [type, name] of [
      ['n8n-nodes-acme.orderLookupV2', 'Order Lookup V2'],
      ['@acme/n8n-nodes-crm.crmTrigger', 'Crm Trigger'],
      ['n8n-nodes-acme.x', 'X'],
      ['plain', 'Plain'],
      ['', 'Node'],
    ] as const) {
      expect(looks.types[type], type).toBeUndefined();
      expect(nodeLook(type), type).toEqual({ name });
    }
  });

  it('takes nothing from Object.prototype for a type named like one of its keys', async () => {
    const { nodeLook } = await onPage(blockText(looks));
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const look = nodeLook(type);
      expect(look.icon).toBeUndefined();
      expect(typeof look.name).toBe('string');
    }
  });

  it('an icon index the table lacks is an empty icon, not an error', async () => {
    const { iconMarkup } = await onPage(blockText(looks));
    expect(iconMarkup(looks.icons.length)).toBe(EMPTY_ICON);
    expect(iconMarkup(-1)).toBe(EMPTY_ICON);
  });
});

describe('nodeLook, on a page without looks', () => {
  it.each([
    ['no block', undefined],
    ['an empty block', ''],
    ['a block that is not JSON', '{"types": {'],
  ])('%s: every type named from its words, none with an icon', async (_case, text) => {
    const { nodeLook, iconMarkup } = await onPage(text);
    const types = new Set(allFixtures().flatMap(({ workflow }) => (workflow.nodes as Json[]).map((n) => n.type as string)));
    for (const type of types) {
      const look = nodeLook(type);
      expect(look.icon, type).toBeUndefined();
      expect(look.color, type).toBeUndefined();
      expect(look.name.length, type).toBeGreaterThan(0);
    }
    expect(nodeLook('n8n-nodes-base.httpRequest')).toEqual({ name: 'Http Request' });
    expect(iconMarkup(0)).toBe(EMPTY_ICON);
  });
});
