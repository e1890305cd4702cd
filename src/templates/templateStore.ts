import { Catalog } from '../catalog/catalog';
import { templateIndexKey, templateKey } from '../catalog/keys';
import { ToolError } from '../lib/errors';
import { TemplateSearcher } from './rankTemplates';
import { TEMPLATE_INDEX_VERSION, type TemplateIndex } from './searchIndex';
import type { TemplateRecord } from './template';

/** The search index of the catalog version an isolate last read, parsed once. */
let cached: { version: string; searcher: TemplateSearcher } | undefined;

/** Read access to the templates stored with the current catalog version in KV; a ToolError says why there are none. */
export class TemplateStore {
  private readonly catalog: Catalog;

  constructor(private readonly kv: KVNamespace) {
    this.catalog = new Catalog(kv);
  }

  /** The searcher over the current version's templates. */
  async searcher(): Promise<TemplateSearcher> {
    return (await this.current()).searcher;
  }

  /**
   * One template whole, or null when the current version has none of this id. Only ids the index
   * lists are looked up: a caller's made-up id never becomes a KV key.
   */
  async template(id: string): Promise<TemplateRecord | null> {
    const { version, searcher } = await this.current();
    return searcher.has(id) ? this.kv.get<TemplateRecord>(templateKey(version, id), 'json') : null;
  }

  private async current(): Promise<{ version: string; searcher: TemplateSearcher }> {
    const version = await this.catalog.version();
    if (version === null) throw new ToolError('No node catalog is loaded on this server, so it has no templates (npm run catalog:load; see the README).');
    if (cached?.version !== version) {
      const index = await this.kv.get<TemplateIndex>(templateIndexKey(version), 'json');
      // An index of another format (a catalog built by other code) is not read as this one.
      if (index?.version !== TEMPLATE_INDEX_VERSION)
        throw new ToolError(
          'The node catalog loaded on this server was built without workflow templates (npm run catalog:build adds them; see docs/templates.md).',
        );
      cached = { version, searcher: new TemplateSearcher(index) };
    }
    return cached;
  }
}

/** Forgets the index this isolate parsed (tests switch catalogs under it). */
export function clearTemplateCache(): void {
  cached = undefined;
}
