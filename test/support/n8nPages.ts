/** A page of one of n8n's lists, as its public API answers it. */
interface Page {
  data: Record<string, any>[];
  nextCursor?: string | null;
}

/** Every entry of one of n8n's lists (`/workflows`, `/executions?…`), page by page, read through `get` (a real n8n's API or the fake's). */
export async function everyEntry(get: (path: string) => Promise<Record<string, any>>, path: string): Promise<Record<string, any>[]> {
  const entries: Record<string, any>[] = [];
  let cursor: string | null | undefined = null;
  do {
    const page = (await get(`${path}${path.includes('?') ? '&' : '?'}limit=250${cursor ? `&cursor=${cursor}` : ''}`)) as Page;
    entries.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}
