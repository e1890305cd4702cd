import type { TestProject } from 'vitest/node';
import { startWranglerDev } from '../../scripts/lib/wranglerDev';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** One `wrangler dev` for the whole end-to-end project, with the default deployment config. */
export default async function setup(project: TestProject) {
  const server = await startWranglerDev();
  project.provide('baseUrl', server.url);
  return () => server.stop();
}
