import { SessionObject as ProductionSessionObject } from '../../src/sessions/SessionObject';

/** The production session object with what only tests use: the eviction fault (./faults.ts). */
export class SessionObject extends ProductionSessionObject {
  /** Resets this object now, as an eviction mid-call does. */
  async injectEviction(): Promise<void> {
    this.ctx.abort('fault injection: eviction');
  }
}
