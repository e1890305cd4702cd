/** The n8n packages whose node descriptions are imported, pinned so a build is repeatable. */
export const N8N_PACKAGES = [
  { name: 'n8n-nodes-base', version: '2.41.2', typePrefix: 'n8n-nodes-base' },
  { name: '@n8n/n8n-nodes-langchain', version: '2.41.1', typePrefix: '@n8n/n8n-nodes-langchain' },
] as const;

export type N8nPackage = (typeof N8N_PACKAGES)[number];
