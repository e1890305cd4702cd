import type { TestProject } from 'vitest/node';
import { startWranglerDev } from '../../scripts/lib/wranglerDev';
import { startFakeN8n } from '../fakes/n8n/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The local development key that `npm run dev` made for this server. */
    apiKey: string;
    /** Its local state: `npm run keys -- … --local --persist-to` this to manage its keys. */
    stateDir: string;
    /** The contract fake of n8n the server's n8n tools talk to (its /__fake/ levers included). */
    n8nUrl: string;
  }
}

export const N8N_TEST_KEY = 'n8n_api_e2e_key';

/** One `wrangler dev` for the whole end-to-end project, driving a fake n8n held to n8n's OpenAPI. */
export default async function setup(project: TestProject) {
  const n8n = await startFakeN8n(N8N_TEST_KEY);
  const server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: N8N_TEST_KEY, API_KEY_CACHE_SECONDS: '0' } });
  project.provide('baseUrl', server.url);
  project.provide('apiKey', server.apiKey!);
  project.provide('stateDir', server.stateDir);
  project.provide('n8nUrl', n8n.url);
  return async () => {
    await server.stop();
    await n8n.stop();
  };
}
