import type { TestProject } from 'vitest/node';
import { startFakeN8n } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The contract fake of n8n (its /__fake/ levers included), for the tests in workerd that drive an n8n tool. */
    n8nUrl: string;
    /** The key it takes. */
    n8nKey: string;
  }
}

/** One fake n8n for the workers project: a test points the n8n tools at it by the Worker's variables. */
export default async function setup(project: TestProject) {
  const n8n = await startFakeN8n('n8n_api_workers_key');
  project.provide('n8nUrl', n8n.url);
  project.provide('n8nKey', n8n.apiKey);
  return () => n8n.stop();
}
