import type { NodeLooks } from '../catalog/nodeLooks';
import { own } from '../lib/ownKeys';

/**
 * How a node type looks: its display name, its colour, and its icon, from the catalog this server was
 * built with (src/catalog/nodeLooks.ts), which the server puts into the page as a JSON block. A type the
 * table lacks (or a page served without one) is named from its own id ("n8n-nodes-base.googleSheets" →
 * "Google Sheets") and drawn with its initials.
 */

interface Look {
  name: string;
  color?: string;
  icon?: number;
}

let table: NodeLooks | undefined;

function looks(): NodeLooks {
  if (table) return table;
  const block = document.getElementById('node-looks');
  try {
    table = block?.textContent ? (JSON.parse(block.textContent) as NodeLooks) : undefined;
  } catch {
    table = undefined;
  }
  table ??= { about: '', types: {}, icons: [] };
  return table;
}

export function nodeLook(type: string): Look {
  const types = looks().types;
  const known = own(types, type);
  if (known) return { name: known.name, ...(known.color ? { color: known.color } : {}), ...(known.icon === undefined ? {} : { icon: known.icon }) };
  const short = type.slice(type.lastIndexOf('.') + 1) || type;
  const name = short.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  return { name: name || 'Node' };
}

export const iconMarkup = (index: number): string => looks().icons[index] ?? '<svg viewBox="0 0 24 24"></svg>';
