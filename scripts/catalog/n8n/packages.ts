/**
 * The n8n packages whose node descriptions are imported, pinned so a build is repeatable. The current
 * ones give every node version n8n has today; the legacy ones (the last n8n 1.x) add the versions that
 * n8n 2 dropped but workflows written for 1.x still use (the Start node, a few integrations).
 */
export const N8N_PACKAGES = [
  { name: 'n8n-nodes-base', version: '2.41.2', typePrefix: 'n8n-nodes-base', legacy: false },
  { name: '@n8n/n8n-nodes-langchain', version: '2.41.1', typePrefix: '@n8n/n8n-nodes-langchain', legacy: false },
  { name: 'n8n-nodes-base', version: '1.121.53', typePrefix: 'n8n-nodes-base', legacy: true },
  { name: '@n8n/n8n-nodes-langchain', version: '1.122.57', typePrefix: '@n8n/n8n-nodes-langchain', legacy: true },
] as const;

export type N8nPackage = (typeof N8N_PACKAGES)[number];
