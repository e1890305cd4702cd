import { Html } from '../../src/http/html';

/** An element as the page's parser sees it: its attributes and its text, character references decoded. */
export interface Element {
  attrs: Record<string, string>;
  text: string;
}

/** Elements matching `selector` in a page: a response's body, rendered Html or markup. */
export async function elements(page: Response | Html | string, selector: string): Promise<Element[]> {
  const response = page instanceof Response ? page : new Response(page instanceof Html ? page.text : page);
  const found: Element[] = [];
  await new HTMLRewriter()
    .on(selector, {
      element: (el) => void found.push({ attrs: Object.fromEntries(el.attributes), text: '' }),
      text: (chunk) => void (found.at(-1)!.text += chunk.text),
    })
    .transform(response)
    .text();
  const decode = (s: string) => s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  return found.map((e) => ({ attrs: e.attrs, text: decode(e.text) }));
}
