import { describe, expect, it } from 'vitest';
import { ToolError, TransientError } from '../../src/lib/errors';

describe('the two failures a tool run may end in', () => {
  it('are told apart by kind: neither is the other, so a refusal is never retried and a failure that may pass never becomes the answer', () => {
    const refusal = new ToolError('no workflow with id 7');
    const outage = new TransientError('n8n answered 503');
    expect(refusal).toBeInstanceOf(Error);
    expect(outage).toBeInstanceOf(Error);
    expect(refusal).not.toBeInstanceOf(TransientError);
    expect(outage).not.toBeInstanceOf(ToolError);
  });

  it('keep their kind in subclasses, as the n8n client makes them', () => {
    class Refused extends ToolError {}
    class Unreachable extends TransientError {}
    expect(new Refused('x')).toBeInstanceOf(ToolError);
    expect(new Unreachable('x')).toBeInstanceOf(TransientError);
    expect(new Unreachable('x')).not.toBeInstanceOf(ToolError);
  });

  it('name themselves in what is logged of them (String(error), the stack), not as a plain Error', () => {
    expect(String(new ToolError('no workflow with id 7'))).toBe('ToolError: no workflow with id 7');
    expect(String(new TransientError('n8n answered 503'))).toBe('TransientError: n8n answered 503');
    expect(new TransientError('n8n answered 503').stack).toMatch(/^TransientError: n8n answered 503/);
  });
});
