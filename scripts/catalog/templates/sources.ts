/**
 * The collections templates are taken from, each with its licence as read at the commit used, and
 * per workflow whether it may be shared. Only a workflow its licensor could license is shared: the
 * repository's own authors' work, or what contributors added to it under its licence. Workflows that
 * came from n8n.io's template library are n8n's and their creators', under n8n.io's terms, whatever
 * licence a collection that copied them carries. docs/templates.md says what each decision rests on.
 */
import type { Origin } from './mirror.ts';

type Json = Record<string, unknown>;

/** A workflow found in a collection, as the licence decision sees it. */
export interface SourceWorkflow {
  path: string;
  doc: Json;
  origin: Origin;
}

/** What a licence decision may ask of a collection's git history. */
export interface History {
  /** The workflow names of its files at a commit. */
  names(commit: string): Set<string>;
  /** Whether a commit's tree holds a file at this path. */
  has(commit: string, path: string): boolean;
}

export type Licensing = { shared: true } | { shared: false; reason: string };

export interface TemplateSource {
  /** owner/name on GitHub. */
  repo: string;
  /** SPDX identifier of the repository's licence; null when it has none (all rights reserved: nothing is shared). */
  licence: string | null;
  /** What the licence decision rests on, in a sentence or two. */
  terms: string;
  /**
   * n8n's own repository: n8n may license what it took from its own template library (n8n.io), so
   * n8n.io's marks on a workflow (fromN8nIo) do not keep it out.
   */
  byN8n?: boolean;
  /**
   * The collection's authors publish the same workflows on n8n.io as its creators: a note linking to
   * an n8n.io template is theirs pointing at their own page, not a sign of a copy (meta.templateId still is).
   */
  linksToOwnN8nIoPages?: boolean;
  /** Read each workflow as the commit that added it wrote it: the collection's tools have rewritten its files since. */
  asAdded?: boolean;
  /** Why none of the collection is taken though its licence would allow it (what it holds is not worth serving). */
  notTaken?: string;
  /** Per workflow, beyond the repository's licence. */
  licensing?(workflow: SourceWorkflow, history: History): Licensing;
}

/** The commit of Zie619/n8n-workflows that imported its collection: 2,050 workflows at once. */
const ZIE619_IMPORT = '84c802cb50fe178fbbe9ec4896429c54b6905d6e';

const NO_LICENCE = 'The repository has no licence file: its content is all rights reserved, so nothing of it is shared.';

const N8N_IO_LINK = /n8n\.io\/(?:workflows|templates|creators)\//;

/**
 * Signs a workflow was exported from n8n.io's template library: `meta.templateId`, which n8n sets on
 * a workflow made from a library template, or notes linking to an n8n.io template or creator page.
 * (`meta.templateCredsSetupCompleted` is no such sign: n8n's editor sets it on any workflow once all
 * its nodes have credentials, template or not.)
 */
export function fromN8nIo(doc: Json, linksAreOwn = false): string | null {
  const meta = (typeof doc.meta === 'object' && doc.meta !== null ? doc.meta : {}) as Json;
  if (meta.templateId !== undefined) return 'it carries n8n.io template metadata (meta.templateId)';
  if (!linksAreOwn && N8N_IO_LINK.test(JSON.stringify(doc.nodes ?? []))) return 'its notes link to an n8n.io template or creator page';
  return null;
}

/** Its own authors' work under an open licence, as far as the repository, its history and its files show. */
const own = (repo: string, licence: string, terms: string, extra: Partial<TemplateSource> = {}): TemplateSource => ({ repo, licence, terms, ...extra });

export const SOURCES: TemplateSource[] = [
  {
    repo: 'n8n-io/self-hosted-ai-starter-kit',
    licence: 'Apache-2.0',
    terms: "n8n's own starter kit, Apache-2.0: its demo workflow is n8n's work.",
    byN8n: true,
  },
  {
    repo: 'n8n-io/skills',
    licence: 'Apache-2.0',
    terms: "n8n's own agent skills, Apache-2.0: its example workflows are n8n's work.",
    byN8n: true,
  },
  own('n8n-io/n8n-observability', 'MIT', "n8n's own observability kit, MIT (LICENSE.md): its benchmark workflow is n8n's work.", { byN8n: true }),
  own(
    'coleam00/ai-agents-masterclass',
    'MIT',
    "Cole Medin's course repository, MIT (LICENSE, Copyright 2024 Cole Medin): the workflows of its lessons are his, all exported from his own n8n " +
      'instances (their instanceIds) and added by him.',
  ),
  own(
    'coleam00/local-ai-packaged',
    'Apache-2.0',
    "Cole Medin's fork of n8n's starter kit, Apache-2.0 (LICENSE): its agent and tool workflows are his (the same as in his course repository, " +
      'exported from his instances).',
  ),
  own(
    'coleam00/ottomator-agents',
    'MIT',
    'The source of the agents on the oTTomator Live Agent Studio, MIT (LICENSE, Copyright 2024 Cole Medin; its four sub-licences are MIT too). ' +
      'Its README: every agent added to the platform is open-sourced here; each was built by Cole Medin or the community member its README ' +
      'names, for the studio, and committed by him.',
  ),
  own(
    'pinecone-io/n8n-templates',
    'MIT',
    "Pinecone's own templates for its n8n nodes, MIT (LICENSE, Copyright 2025 Pinecone), written and added by its developer advocate. Two notes " +
      "link to the same workflow Pinecone published on n8n.io (template 9942, by Pinecone): Pinecone's own page.",
    { linksToOwnN8nIoPages: true },
  ),
  own(
    'yatuk/soc-n8n-workflows',
    'MIT',
    'Twelve SOC playbooks its author wrote (MIT, LICENSE, Copyright 2026 Fatih Cakmak), with a validator and test fixtures of his own.',
  ),
  own(
    'annamiy/fetchcat-n8n-workflows',
    'MIT',
    "FetchCat's templates for its own Apify actors, MIT (LICENSE, Copyright 2026 Anna Nosova), written and added by their author.",
  ),
  own(
    'Core-Claw/coreclaw-n8n-workflows',
    'MIT',
    'CoreClaw\'s templates for its own n8n node; the README\'s licence section: "MIT — same as the upstream node package" (no LICENSE file). ' +
      'Each workflow is there three times (templates/, template-host/, workflows/): the copies are left out as duplicates.',
  ),
  own('Pearl-com/n8n-templates', 'Apache-2.0', "Pearl's template for its own MCP server, Apache-2.0 (LICENSE), written and added by Pearl's developer."),
  own(
    'videobgremover/videobgremover-n8n-templates',
    'MIT',
    "VideoBGRemover's templates for its own API, MIT (LICENSE, Copyright 2025 VideoBGRemover), written and added by its developer.",
  ),
  own(
    'Mfrostbutter/n8n-workflow-templates',
    'MIT',
    "Agenius AI Labs' workflows, MIT (LICENSE and each folder's LICENSE, Copyright 2026 Michael Frostbutter / Agenius AI Labs), added by him.",
  ),
  own(
    'studivox/awesome-n8n-whatsapp-mcp',
    'CC0-1.0',
    "Studivox's WhatsApp workflows, dedicated to the public domain (LICENSE: CC0 1.0 Universal), written and added by Studivox.",
  ),
  own(
    'SilverbackOssi/N8Nworkflows',
    'MIT',
    "Example workflows its owner had made for the repository (by GitHub's coding agent, at the owner's request), MIT (LICENSE).",
  ),
  own(
    'DeployModeIO/n8n-Workflow-Templates',
    'MIT',
    "DeployMode's library of small workflows in Spanish, MIT (LICENSE, Copyright 2026 n8n Workflow Templates Library), generated by its own " +
      'scripts (gen-200.js, build-all.js) and added by its owner.',
    { notTaken: 'generated by scripts rather than built; a third fail validation' },
  ),
  own('devopsvanilla/n8n-templates', 'MIT', "Its author's Intercom and Microsoft Teams workflow, MIT (LICENSE, Copyright 2025 Sandro Cicero)."),
  {
    repo: 'enescingoz/awesome-n8n-templates',
    licence: 'CC-BY-4.0',
    terms:
      'CC BY 4.0 (LICENSE, Copyright 2024-2026 Enes Cingoz), added on 2026-03-12 (commit a1ba1e7). Its README: "All automation templates in this ' +
      'repository were found online ... None of the templates are created or owned by the repository author": everything it had before the ' +
      'licence is left out. What contributors added to it since, under its licence, is shared (each with its contributor as author, the ' +
      "licence's attribution and changes noted), unless it shows n8n.io origins or copies a workflow left out.",
    licensing(workflow, history) {
      if (!history.has(workflow.origin.commit, 'LICENSE'))
        return { shared: false, reason: 'added before the repository had a licence: found online, by its README, not its authors\u2019 work' };
      return { shared: true };
    },
  },
  {
    repo: 'Zie619/n8n-workflows',
    licence: 'MIT',
    terms:
      'MIT, granted by the collector. Its README when the collection was imported (commit 05c94a3) says the workflows were ' +
      '"exported from the n8n.io website and community forum" and "found across the web"; the first README says "all of the ' +
      'workflows of n8n i could find (also from the site itself)". The collector cannot license others\' work, so those are ' +
      "left out; workflows contributors added later, under the repository's MIT licence, are shared unless they show n8n.io origins. " +
      'Its tools later rewrote every file (generated descriptions and notes, added nodes): each is read as its contributor added it.',
    asAdded: true,
    licensing(workflow, history) {
      if (workflow.origin.commit === ZIE619_IMPORT) return { shared: false, reason: 'part of the collection imported from n8n.io, its forum and the web' };
      // A workflow of the import moved and edited later (renamed files git does not pair) still has its name.
      if (typeof workflow.doc.name === 'string' && history.names(ZIE619_IMPORT).has(workflow.doc.name))
        return { shared: false, reason: 'a copy of a workflow of the collection imported from n8n.io, its forum and the web' };
      return { shared: true };
    },
  },
  { repo: 'n8n-io/test-workflows', licence: null, terms: NO_LICENCE },
  { repo: 'n8n-io/n8n-benchmarking', licence: null, terms: NO_LICENCE },
  { repo: 'n8n-io/demo-setup', licence: null, terms: NO_LICENCE },
  { repo: 'MarcoFPO/n8n-Workflows', licence: null, terms: NO_LICENCE },
];

/** Whether a workflow of `source` may be shared, and why not. */
export function licensingOf(source: TemplateSource, workflow: SourceWorkflow, history: History): Licensing {
  if (source.licence === null) return { shared: false, reason: 'no licence' };
  const n8nIo = source.byN8n ? null : fromN8nIo(workflow.doc, source.linksToOwnN8nIoPages);
  if (n8nIo) return { shared: false, reason: `from n8n.io's template library: ${n8nIo}` };
  return source.licensing?.(workflow, history) ?? { shared: true };
}
