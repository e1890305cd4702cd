import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT, buildViewHtml, builtModule } from '../../../scripts/view/build';

describe('the workflow view as the Worker serves it (src/view/built.ts)', () => {
  it('is the build of src/view as it is now: run `npm run view:build` after changing the view', async () => {
    expect(readFileSync(BUILT, 'utf8')).toBe(builtModule(await buildViewHtml()));
  });

  it('is one document with its script and style inline, loading nothing from anywhere', async () => {
    const html = await buildViewHtml();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<style>/g)).toHaveLength(1);
    // No src= or href= to load, no @import, no url() but a fragment of the document itself.
    expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
    expect(html).not.toMatch(/@import|url\((?!#)/i);
    // The script ends where its element does, not at a "</script" inside it.
    expect(html.indexOf('</script>')).toBe(html.lastIndexOf('</script>'));
  });
});
