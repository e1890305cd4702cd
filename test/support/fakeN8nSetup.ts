import type { TestProject } from 'vitest/node';
import { startFakeN8n } from '../fakes/n8n/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The contract fake of n8n (test/fakes/n8n) the workerd tests may point the n8n tools at. */
    fakeN8nUrl: string;
    fakeN8nKey: string;
  }
}

/** For the workerd project: a fake n8n in Node, which tests reach over the network as the Worker reaches n8n. */
export default async function setup(project: TestProject) {
  const n8n = await startFakeN8n('n8n_api_workerd_key');
  project.provide('fakeN8nUrl', n8n.url);
  project.provide('fakeN8nKey', 'n8n_api_workerd_key');
  return () => n8n.stop();
}
