import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Delivery } from '../../src/sessions/PendingCalls';
import { SessionObject as ProductionSessionObject } from '../../src/sessions/SessionObject';

/**
 * The production session object with what only tests use: the eviction fault (./faults.ts), and a
 * count of the results handed to this instance by what became of them (the exactly-once rule seen from
 * outside; test/support/sessionStorage.ts reads it). The count is in memory, so it adds no storage
 * write to what a test observes; it starts again at zero in an object rebuilt after an eviction.
 */
export class SessionObject extends ProductionSessionObject {
  readonly deliveries: Record<Delivery, number> = { delivered: 0, ignored: 0 };

  /** Resets this object now, as an eviction mid-call does. */
  async injectEviction(): Promise<void> {
    this.ctx.abort('fault injection: eviction');
  }

  override async deliverResult(callId: string, result: CallToolResult): Promise<Delivery> {
    const delivery = await super.deliverResult(callId, result);
    this.deliveries[delivery]++;
    return delivery;
  }
}
