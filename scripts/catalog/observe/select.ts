/**
 * Which nodes `npm run catalog:observe` runs: n8n's own nodes of the core, transform, flow and date
 * kinds (n8n's categories) that need no credential and are not triggers, less those a run on sample
 * items cannot show (NOT_OBSERVED, each with its reason). Pure.
 */
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { CLASSED_TYPES } from '../../../src/workflows/nodeClasses.ts';

const CATEGORIES = new Set(['Core Nodes', 'Data Transformation', 'Flow']);

/** Nodes of those categories whose runs need what sample items are not, or reach outside n8n. */
export const NOT_OBSERVED: Record<string, string> = {
  'n8n-nodes-base.aiTransform': 'writes its code with an AI model of n8n cloud',
  'n8n-nodes-base.compression': 'works on binary data',
  'n8n-nodes-base.convertToFile': 'puts out binary data',
  'n8n-nodes-base.extractFromFile': 'reads binary data',
  'n8n-nodes-base.editImage': 'works on binary data',
  'n8n-nodes-base.moveBinaryData': 'works on binary data',
  'n8n-nodes-base.spreadsheetFile': 'works on binary data',
  'n8n-nodes-base.iCal': 'puts out binary data',
  'n8n-nodes-base.readPDF': 'reads binary data',
  'n8n-nodes-base.dataTable': 'reads and writes a data table of the instance',
  'n8n-nodes-base.executeWorkflow': 'runs another workflow',
  'n8n-nodes-base.executionData': 'writes the execution’s metadata, not items',
  'n8n-nodes-base.rssFeedRead': 'reads a feed over the network',
  'n8n-nodes-base.httpRequest': 'calls a URL over the network',
  'n8n-nodes-base.ftp': 'reaches an FTP or SFTP server',
  'n8n-nodes-base.e2eTest': 'n8n’s own test helper',
  'n8n-nodes-base.simulate': 'n8n’s own placeholder',
  'n8n-nodes-base.start': 'a trigger of n8n 0.x',
  'n8n-nodes-base.timeSaved': 'records time saved, not items',
  'n8n-nodes-base.stopAndError': 'always stops the run with its error',
  'n8n-nodes-base.wait': 'waits: its output is its input',
  'n8n-nodes-base.respondToWebhook': 'answers a webhook call',
};

export function observedNodes(specs: NodeSpec[]): NodeSpec[] {
  const classed = new Set(CLASSED_TYPES);
  return specs.filter(
    (s) =>
      s.source === 'n8n' &&
      s.subtype.startsWith('n8n-nodes-base.') &&
      !s.tool_of &&
      // A credential some choices need (Crypto 2's hmac) leaves the others to observe.
      !s.credentials?.some((c) => c.required && !c.display_options) &&
      s.node_type !== 'TRIGGER_NODE' &&
      !s.has_webhooks &&
      s.categories.some((c) => CATEGORIES.has(c)) &&
      // Host and code nodes run what they are given (a command, a file path, JavaScript): nothing to observe of their own.
      !classed.has(s.subtype) &&
      !Object.hasOwn(NOT_OBSERVED, s.subtype),
  );
}
