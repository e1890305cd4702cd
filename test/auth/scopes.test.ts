import { describe, expect, it } from 'vitest';
import { allows, isScope, narrow, parseScopes, scopesOf } from '../../src/auth/scopes';

describe('scopes', () => {
  it('parse from commas or spaces and refuse unknown ones', () => {
    expect(parseScopes('nodes:read, workflows:read workflows:read')).toEqual(['nodes:read', 'workflows:read']);
    expect(() => parseScopes('nodes:read,workflow:write')).toThrow(/unknown scope "workflow:write"/);
    expect(() => parseScopes(' ')).toThrow(/no scopes/);
  });

  it('narrow what is asked for to what the credential has', () => {
    expect(narrow(['nodes:read', 'workflows:write'], ['nodes:read'])).toEqual(['nodes:read']);
    expect(narrow(['nodes:read', 'workflows:write'], ['*'])).toEqual(['nodes:read', 'workflows:write']);
    expect(narrow(['workflows:write'], ['nodes:read'])).toEqual([]);
    // Wanting everything gets what the credential has.
    expect(narrow(['*'], ['nodes:read'])).toEqual(['nodes:read']);
    expect(narrow(['*'], ['*'])).toEqual(['*']);
  });

  it('narrow away what a credential holds but this server does not know, even when everything is wanted', () => {
    // A key stored before a scope was renamed keeps the old name: it never reaches a token.
    expect(narrow(['*'], ['nodes:read', 'workflow:write'])).toEqual(['nodes:read']);
  });

  it('know only the scopes this server defines', () => {
    expect(['nodes:read', 'audit:read', '*'].filter(isScope)).toEqual(['nodes:read', 'audit:read', '*']);
    expect(['audit:write', 'nodes', 'NODES:READ', '', ' nodes:read', 'workflows:*'].filter(isScope)).toEqual([]);
  });

  it('allow what the granted scopes name, everything under *, and anything a tool leaves unscoped', () => {
    expect(allows(['workflows:read'], 'workflows:read')).toBe(true);
    expect(allows(['workflows:read'], 'workflows:write')).toBe(false);
    // No implied scopes: write does not cover read.
    expect(allows(['workflows:write'], 'workflows:read')).toBe(false);
    expect(allows(['*'], 'credentials:write')).toBe(true);
    expect(allows([], undefined)).toBe(true);
    expect(allows([], 'nodes:read')).toBe(false);
  });

  it('list every scope a tool needs: its own first, then those it also needs', () => {
    expect(scopesOf({ scope: 'workflows:write', alsoNeeds: ['executions:read'] })).toEqual(['workflows:write', 'executions:read']);
    expect(scopesOf({ scope: 'nodes:read' })).toEqual(['nodes:read']);
    expect(scopesOf({})).toEqual([]);
  });
});
