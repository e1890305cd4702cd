import { describe, expect, it } from 'vitest';
import { clientCapabilitiesOf } from '../../src/server/clientCapabilities';

describe('what a 2026-07-28 request’s client says it can do', () => {
  it('is the capabilities its own envelope carries', () => {
    const capabilities = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities };
    expect(clientCapabilitiesOf(envelope)).toEqual(capabilities);
  });

  it('is nothing at all when the envelope names none, or there is no envelope', () => {
    expect(clientCapabilitiesOf({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' })).toEqual({});
    expect(clientCapabilitiesOf(undefined)).toEqual({});
  });
});
