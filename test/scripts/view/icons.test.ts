import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { listedSources } from '../../../scripts/catalog/community/import.ts';
import { packageFolder } from '../../../scripts/catalog/community/fetch.ts';
import { CACHE_DIR } from '../../../scripts/catalog/n8n/fetch.ts';
import { N8N_PACKAGES } from '../../../scripts/catalog/n8n/packages.ts';
import {
  ALWAYS,
  buildIconTable,
  chooseIcons,
  formatTable,
  gzipSize,
  ICONS_BUDGET_GZIP,
  loadIcon,
  LUCIDE,
  rankTypes,
  type IconTable,
} from '../../../scripts/view/icons.ts';
import { iconFromSvg } from '../../../scripts/view/icons/minify.ts';
import { prefixIds, RejectedSvg, sanitizeSvg } from '../../../scripts/view/icons/sanitize.ts';
import { iconSource, nodeTypes, type Described, type DescribedPackage } from '../../../scripts/view/icons/sources.ts';
import { parseXml, serializeXml, XmlError } from '../../../scripts/view/icons/xml.ts';

const clean = (svg: string) => serializeXml(sanitizeSvg(svg).root);

/**
 * What a clean icon never holds, checked on the markup apart from the sanitizer: no element that runs,
 * fetches or embeds, no event handler, no reference that leaves the icon.
 */
function expectClean(markup: string): void {
  expect(markup).not.toMatch(/<(script|style|foreignObject|image|iframe|embed|object|a|set|animate\w*|feImage|switch)[\s/>]/i);
  expect(markup).not.toMatch(/\son[a-z]+\s*=/i);
  expect(markup).not.toMatch(/javascript:|vbscript:|data:|@import|\\/i);
  expect(markup.replace(' xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|\/\//i);
  for (const [, value] of markup.matchAll(/\shref="([^"]*)"/g)) expect(value).toMatch(/^#[\w.-]+$/);
  for (const [, target] of markup.matchAll(/url\(([^)]*)\)/gi)) expect(target).toMatch(/^#[\w.-]+$/);
  expect(markup).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[-\d. e]+">/);
}

const HOSTILE = `<?xml version="1.0"?>
<!-- a hostile icon -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 24 24" onload="alert(1)" fill="red" style="stroke:blue;background:url(https://evil.example/x.png)">
  <script>alert(1)</script>
  <script type="text/ecmascript"><![CDATA[ fetch('https://evil.example') ]]></script>
  <style>@import url(https://evil.example/x.css); path { fill: url(https://evil.example/p.svg#g) }</style>
  <foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="https://evil.example/x.png"/></body></foreignObject>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h4v4z"/></defs>
  <a xlink:href="javascript:alert(1)"><path d="M1 1h2v2z" onclick="alert(1)" fill="url(#g)"/></a>
  <a href="&#106;avascript:alert(1)"><circle cx="5" cy="5" r="2"/></a>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <use href="data:image/svg+xml;base64,PHN2Zy8+"/>
  <use xlink:href="#p" x="4"/>
  <image href="https://evil.example/x.png" width="10" height="10"/>
  <path d="M3 3h2v2z" style="fill:url('https://evil.example/f.svg#a');stroke:url(#g);behavior:url(x.htc)" filter="url(https://evil.example/f.svg#f)"/>
  <path d="M4 4h2v2z" fill="URL( 'http://evil.example/a' )" stroke="url(#g) url(http://evil.example/b)" mask="url(#missing)"/>
  <rect width="2" height="2" style="fill:\\75rl(http://evil.example)"/>
  <set attributeName="href" to="javascript:alert(1)"/>
  <animate attributeName="fill" values="red;blue" dur="1s"/>
  <filter id="f"><feImage href="https://evil.example/x.png"/><feGaussianBlur stdDeviation="1"/></filter>
  <iframe src="https://evil.example"/>
  <text x="1" y="10">&lt;script&gt;alert(1)&lt;/script&gt;</text>
  <g sodipodi:docname="x" class="st0" data-x="1"><ellipse cx="1" cy="1" rx="1" ry="1"/></g>
</svg>`;

describe('parseXml', () => {
  it('reads elements, attributes, text, CDATA and references, and skips comments and instructions', () => {
    const root = parseXml(
      `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><!-- c --><svg a='1 &amp; &#x32;'><t><![CDATA[<b>]]>&lt;</t></svg>`,
    );
    expect(root).toEqual({
      type: 'element',
      name: 'svg',
      attributes: [['a', '1 & 2']],
      children: [
        {
          type: 'element',
          name: 't',
          attributes: [],
          children: [
            { type: 'text', value: '<b>' },
            { type: 'text', value: '<' },
          ],
        },
      ],
    });
  });

  it.each([
    ['entity definitions', '<!DOCTYPE svg [<!ENTITY x "<script/>">]><svg>&x;</svg>'],
    ['an unknown entity', '<svg>&nbsp;</svg>'],
    ['a bare ampersand', '<svg a="x & y"/>'],
    ['a mismatched tag', '<svg><g></svg>'],
    ['an unclosed element', '<svg><g>'],
    ['a duplicate attribute', '<svg a="1" a="2"/>'],
    ['an unquoted value', '<svg a=1/>'],
    ['a second root', '<svg/><svg/>'],
    ['"<" in a value', '<svg a="<"/>'],
  ])('refuses %s', (_, text) => {
    expect(() => parseXml(text)).toThrow(XmlError);
  });

  it('escapes what it writes, so it reads back the same', () => {
    const root = parseXml('<svg a="&quot;&lt;&amp;&gt;"><text>a &lt;b&gt; &amp; c</text></svg>');
    expect(serializeXml(root)).toBe('<svg a="&quot;&lt;&amp;&gt;"><text>a &lt;b&gt; &amp; c</text></svg>');
    expect(parseXml(serializeXml(root))).toEqual(root);
  });
});

describe('sanitizeSvg', () => {
  it('takes everything hostile out of a hostile icon and keeps what it draws', () => {
    const { root, removed } = sanitizeSvg(HOSTILE);
    const markup = serializeXml(root);
    expectClean(markup);
    // Only the text, escaped, still says alert.
    expect(markup.replace('>&lt;script&gt;alert(1)&lt;/script&gt;<', '><')).not.toMatch(/alert|evil|onload|onclick|behavior|sodipodi|class=|data-x/);
    // What it draws survives: the paths the <a>s held, the internal <use>, gradients, the text as text.
    expect(markup).toContain('<path d="M1 1h2v2z" fill="url(#g)"/>');
    expect(markup).toContain('<circle cx="5" cy="5" r="2"/>');
    expect(markup).toContain('<use href="#p" x="4"/>');
    expect(markup).toContain('<path d="M3 3h2v2z" style="stroke:url(#g)"/>');
    expect(markup).toContain('<text x="1" y="10">&lt;script&gt;alert(1)&lt;/script&gt;</text>');
    expect(markup).toContain('<filter id="f"><feGaussianBlur stdDeviation="1"/></filter>');
    // The root keeps its namespace and viewBox; what it drew with moves to a group.
    expect(markup).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24"><g fill="red" style="stroke:blue">/);
    expect(removed).toEqual(
      expect.arrayContaining([
        'element script',
        'element style',
        'element foreignObject',
        'element image',
        'element set',
        'element animate',
        'element feImage',
        'element iframe',
        'element a (unwrapped)',
        'attribute onload',
        'attribute onclick',
        'href (not #id)',
        'fill (url() not to #id)',
        'filter (url() not to #id)',
        'mask (to a missing id)',
        'style fill (url() not to #id)',
        'style background',
        'style (escape or comment)',
      ]),
    );
  });

  it('comes out as clean through svgo and the sanitizer (the stored pipeline)', () => {
    const { markup } = iconFromSvg(HOSTILE);
    expectClean(markup);
    expect(markup).not.toMatch(/alert\(1\)<\/script|evil|onload|onclick/);
    expect(loadIcon(HOSTILE)).toEqual({ error: 'draws with a raster image' });
  });

  it('keeps hrefs and url()s to ids of the icon only, xlink:href as href', () => {
    const markup = clean(
      '<svg viewBox="0 0 4 4"><defs><path id="a" d="M0 0h1v1z"/><clipPath id="c"><path d="M0 0h4v4z"/></clipPath></defs><use xlink:href="#a" clip-path="url(\'#c\')"/><use href="#b"/><path d="M1 1h1" fill="url(#nope)"/></svg>',
    );
    expect(markup).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><defs><path id="a" d="M0 0h1v1z"/><clipPath id="c"><path d="M0 0h4v4z"/></clipPath></defs><use href="#a" clip-path="url(#c)"/><path d="M1 1h1"/></svg>',
    );
  });

  it('makes a viewBox of a numeric width and height, and refuses an icon without either or with nothing drawn', () => {
    expect(clean('<svg width="48px" height="32"><path d="M0 0h1"/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32"><path d="M0 0h1"/></svg>',
    );
    expect(() => sanitizeSvg('<svg width="100%" height="100%"><path d="M0 0h1"/></svg>')).toThrow(RejectedSvg);
    expect(() => sanitizeSvg('<svg viewBox="0 0 1 1"><script>x</script><defs/></svg>')).toThrow(RejectedSvg);
    expect(() => sanitizeSvg('<html><svg viewBox="0 0 1 1"><path d="M0 0h1"/></svg></html>')).toThrow(RejectedSvg);
  });

  it('keeps the first of duplicate ids and drops invalid ones', () => {
    expect(clean('<svg viewBox="0 0 1 1"><path id="a" d="M0 0h1"/><path id="a" d="M1 1h1"/><path id="1x" d="M2 2h1"/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path id="a" d="M0 0h1"/><path d="M1 1h1"/><path d="M2 2h1"/></svg>',
    );
  });

  it('is clean and a fixed point for any mix of allowed and hostile markup', () => {
    const elements = [
      'g',
      'path',
      'rect',
      'use',
      'a',
      'script',
      'style',
      'foreignObject',
      'image',
      'set',
      'text',
      'linearGradient',
      'stop',
      'mask',
      'feImage',
      'switch',
    ];
    const attributes = [
      ['id', 'a'],
      ['id', 'b'],
      ['d', 'M0 0h1'],
      ['fill', 'url(#a)'],
      ['fill', 'url(http://x.example/y#a)'],
      ['stroke', 'url(#b) red'],
      ['href', '#a'],
      ['href', 'javascript:alert(1)'],
      ['xlink:href', '#b'],
      ['xlink:href', '//x.example/s.svg#a'],
      ['onload', 'alert(1)'],
      ['style', 'fill:url(#b);cursor:url(http://x.example/c)'],
      ['style', 'mask:url(data:image/svg+xml,x)'],
      ['mask', 'url( "#a" )'],
      ['filter', 'u\\72l(http://x)'],
    ] as const;
    const node: fc.Memo<string> = fc.memo((depth) =>
      fc
        .tuple(
          fc.constantFrom(...elements),
          fc.uniqueArray(fc.constantFrom(...attributes), { selector: ([name]) => name, maxLength: 4 }),
          depth > 1 ? fc.array(node(depth - 1), { maxLength: 3 }) : fc.constant([]),
          fc.constantFrom('', 'hi', '&lt;script&gt;'),
        )
        .map(([name, attrs, children, text]) => {
          const list = attrs.map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`).join('');
          return `<${name}${list}>${text}${children.join('')}</${name}>`;
        }),
    );
    fc.assert(
      fc.property(fc.array(node(3), { minLength: 1, maxLength: 4 }), (children) => {
        let markup: string;
        try {
          markup = clean(`<svg viewBox="0 0 10 10" onload="x()" fill="url(#a)">${children.join('')}</svg>`);
        } catch (error) {
          if (error instanceof RejectedSvg) return;
          throw error;
        }
        expectClean(markup);
        expect(clean(markup)).toBe(markup);
      }),
      { numRuns: 300 },
    );
  });
});

describe('prefixIds', () => {
  it('prefixes every id, href and url(#id), so two icons with the same ids share a document', () => {
    const svg =
      '<svg viewBox="0 0 1 1"><defs><linearGradient id="a"/><path id="b" d="M0 0h1"/></defs><use href="#b" fill="url(#a)" style="stroke:url(#a)"/></svg>';
    const root = sanitizeSvg(svg).root;
    const one = serializeXml(prefixIds(root, 'i0-'));
    const two = serializeXml(prefixIds(root, 'i1-'));
    expect(one).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><defs><linearGradient id="i0-a"/><path id="i0-b" d="M0 0h1"/></defs><use href="#i0-b" fill="url(#i0-a)" style="stroke:url(#i0-a)"/></svg>',
    );
    const ids = (markup: string) => [...markup.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(one).filter((id) => ids(two).includes(id))).toEqual([]);
    // The source tree is left as it was.
    expect(serializeXml(root)).toContain('id="a"');
  });
});

describe('chooseIcons', () => {
  const render = (markup: string, prefix: string) => markup.replace('ID', prefix);
  // Incompressible icons of known size: random hex, seeded.
  const noise = (seed: number, length: number) => {
    let x = seed;
    return Array.from({ length }, () => ((x = (x * 1103515245 + 12345) % 2 ** 31) % 16).toString(16)).join('');
  };
  const icon = (seed: number, length: number) => `<svg id="ID">${noise(seed, length)}</svg>`;

  it('takes icons by rank within the budget, shares identical ones, and skips one that does not fit for smaller ones after it', () => {
    const ranked = [
      { type: 'a', markup: icon(1, 2000) },
      { type: 'b', markup: icon(1, 2000) },
      { type: 'c' },
      { type: 'd', markup: icon(2, 4000) },
      { type: 'e', markup: icon(3, 600) },
    ];
    const budget = gzipSize([render(icon(1, 2000), 'i0-'), render(icon(3, 600), 'i1-')]) + 10;
    const choice = chooseIcons(ranked, { budget, always: 0, render });
    expect([...choice.index]).toEqual([
      ['a', 0],
      ['b', 0],
      ['e', 1],
    ]);
    expect(choice.overBudget).toEqual(['d']);
    expect(choice.icons).toEqual([render(icon(1, 2000), 'i0-'), render(icon(3, 600), 'i1-')]);
    expect(gzipSize(choice.icons)).toBeLessThanOrEqual(budget);
    expect(chooseIcons(ranked, { budget, always: 0, render })).toEqual(choice);
  });

  it('always takes the icons of the most used types, whatever the budget', () => {
    const ranked = [
      { type: 'a', markup: icon(1, 3000) },
      { type: 'b', markup: icon(2, 3000) },
      { type: 'c', markup: icon(3, 10) },
    ];
    const choice = chooseIcons(ranked, { budget: 100, always: 2, render });
    expect([...choice.index.keys()]).toEqual(['a', 'b']);
    expect(choice.overBudget).toEqual(['c']);
  });
});

describe('rankTypes', () => {
  it('puts the most used first, then the rest by name', () => {
    expect(rankTypes(['x.b', 'x.a', 'x.c', 'x.d'], { 'x.c': 5, 'x.d': 9, 'x.z': 100 })).toEqual(['x.d', 'x.c', 'x.a', 'x.b']);
  });
});

describe('nodeTypes', () => {
  const pkg = (name: string, version: string, nodes: Partial<Described>[], legacy = false, community = false): DescribedPackage => ({
    pkg: { name, version },
    typePrefix: name,
    legacy,
    community,
    nodes: nodes.map((n) => ({ version: 1, properties: [], ...n }) as Described),
  });
  const base = (version: string, nodes: Partial<Described>[], legacy = false) => pkg('n8n-nodes-base', version, nodes, legacy);

  it('names each type from its newest description and takes the icon n8n 1.x had where n8n 2 names its editor’s own', () => {
    const types = nodeTypes([
      base('2.0.0', [
        { name: 'set', displayName: 'Edit Fields (Set)', version: [3, 3.4], icon: 'node:edit-fields', defaults: {} },
        { name: 'set', displayName: 'Set', version: [1, 2], icon: 'fa:pen', defaults: { color: '#0000ff' } },
        { name: 'slack', displayName: 'Slack', version: 2, iconUrl: 'icons/n8n-nodes-base/dist/nodes/Slack/slack.svg', usableAsTool: true },
        { name: 'box', displayName: 'Box', iconUrl: { light: 'icons/n8n-nodes-base/dist/nodes/Box/box.png', dark: 'x' } },
        { name: 'split', displayName: 'Split', icon: 'node:split' },
        { name: 'agent', displayName: 'AI Agent', version: 2, icon: 'node:ai-agent' },
        { name: 'messageAnAgent', displayName: 'Message an Agent', icon: 'node:ai-agent' },
      ]),
      base(
        '1.0.0',
        [
          { name: 'set', displayName: 'Set', version: [3, 3.4], icon: 'fa:pen', defaults: { color: '#0000ff' } },
          { name: 'agent', displayName: 'AI Agent', version: 2, icon: 'fa:robot' },
        ],
        true,
      ),
      pkg('n8n-nodes-acme', '1.0.0', [{ name: 'acme', displayName: 'Acme', icon: 'file:acme.svg' }], false, true),
    ]);
    expect(types).toEqual([
      { type: 'n8n-nodes-acme.acme', name: 'Acme', color: null, declared: 'file', why: 'community' },
      { type: 'n8n-nodes-base.agent', name: 'AI Agent', color: null, declared: 'node:ai-agent', icon: { kind: 'lucide', name: 'bot' } },
      { type: 'n8n-nodes-base.box', name: 'Box', color: null, declared: 'png', why: 'png' },
      // New in n8n 2: the icon of the type n8n 2 draws alike.
      { type: 'n8n-nodes-base.messageAnAgent', name: 'Message an Agent', color: null, declared: 'node:ai-agent', icon: { kind: 'lucide', name: 'bot' } },
      { type: 'n8n-nodes-base.set', name: 'Edit Fields (Set)', color: '#0000ff', declared: 'node:edit-fields', icon: { kind: 'lucide', name: 'pen' } },
      {
        type: 'n8n-nodes-base.slack',
        name: 'Slack',
        color: null,
        declared: 'svg',
        icon: { kind: 'file', pkg: { name: 'n8n-nodes-base', version: '2.0.0' }, path: 'dist/nodes/Slack/slack.svg' },
      },
      {
        type: 'n8n-nodes-base.slackTool',
        name: 'Slack Tool',
        color: null,
        declared: 'svg',
        icon: { kind: 'file', pkg: { name: 'n8n-nodes-base', version: '2.0.0' }, path: 'dist/nodes/Slack/slack.svg' },
      },
      { type: 'n8n-nodes-base.split', name: 'Split', color: null, declared: 'node:split', why: 'node: icon' },
    ]);
  });

  it('refuses an icon path outside its package', () => {
    const pinned = { name: 'n8n-nodes-base', version: '1.0.0' };
    expect(iconSource({ iconUrl: 'icons/other/x.svg' } as Described, pinned)).toMatch(/outside the package/);
    expect(iconSource({ iconUrl: 'icons/n8n-nodes-base/../../x.svg' } as Described, pinned)).toMatch(/outside the package/);
    expect(iconSource({ icon: 'fa:grip-lines-vertical' } as Described, pinned)).toBe('fa:grip-lines-vertical (no Lucide equivalent)');
  });
});

describe('the table built from the pinned packages', () => {
  // The packages come from npm (cached in .catalog/cache by the catalog build or this script): without them, not checked.
  const tarball = (name: string, version: string) => {
    const dir = join(CACHE_DIR, `${name.replace('/', '+')}@${version}`);
    return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.tgz'));
  };
  const community = listedSources({}).flatMap((s) => ('npm' in s.from ? [{ name: s.from.npm, version: s.from.version }] : []));
  const cached =
    N8N_PACKAGES.every((p) => tarball(p.name, p.version)) &&
    tarball(LUCIDE.name, LUCIDE.version) &&
    community.every((p) => existsSync(join(packageFolder(p), 'package.json')));

  // Built once for the file (about 10 s), when the packages are there.
  let table: IconTable;
  beforeAll(() => {
    if (cached) table = buildIconTable().table;
  }, 120_000);

  it.skipIf(!cached)('has every icon clean, a fixed point of the sanitizer, within the budget', () => {
    expect(table.icons.length).toBeGreaterThan(0);
    for (const [i, icon] of table.icons.entries()) {
      expectClean(icon);
      expect(clean(icon)).toBe(icon);
      for (const [, id] of icon.matchAll(/\sid="([^"]+)"/g)) expect(id).toMatch(new RegExp(`^i${i}-`));
    }
    expect(gzipSize(table.icons)).toBeLessThanOrEqual(ICONS_BUDGET_GZIP);
  });

  it.skipIf(!cached)('names every type, sorted, with icon indexes that exist and every icon used', () => {
    const types = Object.keys(table.types);
    expect(types).toEqual([...types].sort());
    const used = new Set<number>();
    for (const look of Object.values(table.types)) {
      expect(typeof look.name).toBe('string');
      expect(look.color === null || /^#[0-9a-fA-F]{3,8}$/.test(look.color)).toBe(true);
      if (look.icon !== undefined) {
        expect(look.icon).toBeLessThan(table.icons.length);
        used.add(look.icon);
      }
    }
    expect(used.size).toBe(table.icons.length);
    expect(table.types['n8n-nodes-base.httpRequest']).toMatchObject({ name: 'HTTP Request' });
  });

  it.skipIf(!cached)(
    'is the same on every build, and has icons for nearly all of the most used types',
    () => {
      const { table: built } = buildIconTable();
      expect(formatTable(built)).toBe(formatTable(table));
      expect(built.icons.length).toBeGreaterThan(0);
      const top = rankTypes(Object.keys(built.types), JSON.parse(readFileSync('scripts/catalog/usage/node-usage.json', 'utf8')).counts).slice(0, ALWAYS);
      expect(top.filter((type) => built.types[type]!.icon !== undefined).length).toBeGreaterThanOrEqual(ALWAYS - 2);
    },
    120_000,
  );
});
