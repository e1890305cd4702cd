import { describe, expect, it } from 'vitest';
import { withNodeLooks, type NodeLooks } from '../../src/catalog/nodeLooks';
import { VIEW_HTML } from '../../src/view/built';

const looks: NodeLooks = {
  about: 'test',
  types: { 'n8n-nodes-base.set': { name: 'Edit Fields', color: '#0000ff', icon: 0 } },
  icons: ['<svg viewBox="0 0 1 1"></svg>'],
};

/** The JSON block a page holds, parsed as the view parses it. */
const block = (html: string) => {
  const match = /<script type="application\/json" id="node-looks">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
};

describe('the node looks in the view’s page', () => {
  it('go where the page marks their place, once, as JSON the view reads back whole', () => {
    const html = withNodeLooks(VIEW_HTML, looks);
    expect(VIEW_HTML).toContain('<!--node-looks-->');
    expect(html).not.toContain('<!--node-looks-->');
    expect(html.match(/id="node-looks"/g)).toHaveLength(1);
    expect(block(html)).toEqual(looks);
  });

  it('cannot close their block or open markup, whatever a package names its nodes', () => {
    const hostile: NodeLooks = { ...looks, types: { 'x.y': { name: '</script><script>alert(1)</script><!--', color: null } } };
    const html = withNodeLooks(VIEW_HTML, hostile);
    // One data block, then the page's own script: nothing in between.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(block(html)).toEqual(hostile);
  });

  it('leave the page as it is when the catalog has none', () => {
    expect(withNodeLooks(VIEW_HTML, null)).toBe(VIEW_HTML);
  });
});
