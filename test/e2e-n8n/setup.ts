import type { TestProject } from 'vitest/node';
import { startRealN8n } from '../../scripts/n8n/realN8n';
import { startWranglerDev } from '../../scripts/lib/wranglerDev';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This server (`npm run dev`), driving the real n8n below. */
    serverUrl: string;
    serverKey: string;
    /** Its local state: `npm run keys -- … --local --persist-to` this for keys with fewer scopes. */
    serverStateDir: string;
    /** The real n8n (installed into .n8n/ once), for reading back what the tools did. */
    realN8nUrl: string;
    realN8nKey: string;
  }
}

/** A real n8n 1.123.81 on loopback with throwaway data, and `npm run dev` pointed at it. */
export default async function setup(project: TestProject) {
  const n8n = await startRealN8n();
  // The suite runs many test runs at once from one key (testRuns.test.ts): the cap on a caller's runs is tested in workerd.
  const server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off', RUNS_PER_CALLER: '25' } });
  project.provide('serverUrl', server.url);
  project.provide('serverKey', server.apiKey!);
  project.provide('serverStateDir', server.stateDir);
  project.provide('realN8nUrl', n8n.url);
  project.provide('realN8nKey', n8n.apiKey);
  return async () => {
    await server.stop();
    await n8n.stop();
  };
}
