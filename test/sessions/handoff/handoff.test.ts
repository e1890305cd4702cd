import { describe, expect, it } from 'vitest';
import { handoffComment, handoffOf } from '../../../src/sessions/handoff/handoff';

describe('handoff comment', () => {
  it('round-trips a stream id and the last event id, or none', () => {
    const streamId = crypto.randomUUID();
    expect(handoffOf(`event: message\nid: 0001763876000000\ndata: {}\n\n${handoffComment({ streamId, after: '0001763876000000' })}`)).toEqual({
      streamId,
      after: '0001763876000000',
    });
    expect(handoffOf(handoffComment({ streamId: '_GET_stream' }))).toEqual({ streamId: '_GET_stream' });
  });

  it('is not found in a body that ended for good, even one whose data quotes it', () => {
    expect(handoffOf('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n')).toBeUndefined();
    expect(handoffOf('data: {"text":"x\\n: continues abc 0001763876000000"}\n\n')).toBeUndefined();
    expect(handoffOf('data: x: continues abc -\n\n')).toBeUndefined();
  });
});
