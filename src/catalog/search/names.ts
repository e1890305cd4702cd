import { own } from '../../lib/ownKeys';
import { words } from './tokenize';

/** Words of a node's name that do not tell one node from another. */
const GENERIC = new Set(['trigger', 'node', 'n8n', 'and', 'the', 'of', 'for', 'a', 'to', 'by', 'with', 'on']);
/** How vendors are written short, inside a name ("mssql", "gsheets"). */
const VENDOR_SHORT: Record<string, string> = { microsoft: 'ms', google: 'g', amazon: 'a' };
/** How vendors are written short as a word of their own ("msft to do"). */
export const VENDOR_WORDS: Record<string, string[]> = { microsoft: ['ms', 'msft'] };

/** A node's type name without its package: n8n-nodes-base.slackTrigger → slackTrigger. */
export const typeName = (subtype: string): string => subtype.slice(subtype.lastIndexOf('.') + 1);

export interface NodeName {
  /** Words of the name that tell the node apart, lowercased: "microsoft", "onedrive". */
  words: string[];
  /** Short and joined forms of the whole name: "gcs", "mssql", "gsheets", "googlesheets". */
  forms: string[];
}

/**
 * How a node's display name can be written in a query: its distinctive words, and the joined and
 * abbreviated forms people type for multi-word names (initials, vendor prefix + rest, all joined).
 */
export function nodeName(displayName: string): NodeName {
  const all = words(displayName).map((w) => w.toLowerCase());
  const telling = all.filter((w) => !GENERIC.has(w) && !/^\d+$/.test(w));
  // "n8n Trigger" is named by its generic words alone.
  const named = telling.length > 0 ? telling : all.filter((w) => w !== 'trigger');
  const forms = new Set<string>();
  if (named.length > 1) {
    forms.add(named.join(''));
    const [first, ...rest] = named;
    const vendor = own(VENDOR_SHORT, first!);
    // Two letters alone say too little ("hr" is not HTTP Request), unless a vendor's ("ga").
    if (named.length >= 3 || vendor) forms.add(named.map((w) => w[0]).join(''));
    if (vendor) forms.add(vendor + rest.join(''));
  }
  return { words: [...new Set(named)], forms: [...forms].filter((f) => f.length >= 2) };
}

/** Words of a package's name that say whose or what it is: "@brave/n8n-nodes-brave-search" → brave, search. */
export const packageWords = (packageName: string): string[] =>
  words(packageName)
    .map((w) => w.toLowerCase())
    .filter((w) => !/^(n8n|nodes?|community)$/.test(w));
