/**
 * What a credential may do. `nodes:read` covers the knowledge tools and the node-spec resources; the
 * n8n tools need `<resource>:read` or `<resource>:write`; `workflows:code`, `workflows:host` and
 * `credentials:use` let a caller put nodes of those classes into n8n or run them (src/auth/nodePolicy.ts);
 * `instances:write` lets a workspace's key add, test and replace its n8n connections (src/workspaces/);
 * `*` is everything.
 */
export const SCOPES = [
  'nodes:read',
  'workflows:read',
  'workflows:write',
  'workflows:code',
  'workflows:host',
  'executions:read',
  'executions:write',
  'credentials:read',
  'credentials:write',
  'credentials:use',
  'tags:read',
  'tags:write',
  'users:read',
  'users:write',
  'variables:read',
  'variables:write',
  'projects:read',
  'projects:write',
  'audit:read',
  'instances:write',
  '*',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Whether granted scopes allow what `needed` names (`undefined`: anyone with a credential). */
export const allows = (granted: readonly string[], needed: Scope | undefined): boolean =>
  needed === undefined || granted.includes('*') || granted.includes(needed);

/** Every scope a tool needs: its own and those it also needs. */
export const scopesOf = (tool: { scope?: Scope; alsoNeeds?: readonly Scope[] }): Scope[] => [...(tool.scope ? [tool.scope] : []), ...(tool.alsoNeeds ?? [])];

/** The scopes a tool needs that `granted` lacks: none means the caller may see and call it. */
export const missingScopes = (tool: { scope?: Scope; alsoNeeds?: readonly Scope[] }, granted: readonly string[]): Scope[] =>
  scopesOf(tool).filter((scope) => !allows(granted, scope));

/**
 * Parses a comma- or space-separated scope list; throws naming the first unknown one, so a typo never
 * becomes a silently narrower (or wider) credential.
 */
export function parseScopes(text: string): Scope[] {
  const scopes = text.split(/[\s,]+/).filter(Boolean);
  const unknown = scopes.find((s) => !isScope(s));
  if (unknown !== undefined) throw new Error(`unknown scope "${unknown}"; known: ${SCOPES.join(', ')}`);
  if (scopes.length === 0) throw new Error(`no scopes given; known: ${SCOPES.join(', ')}`);
  return [...new Set(scopes)] as Scope[];
}

/**
 * What a token minted from a credential may carry: the scopes of `wanted` that `granted` covers, and
 * all of `granted` when `*` is wanted.
 */
export function narrow(wanted: readonly Scope[], granted: readonly string[]): Scope[] {
  if (wanted.includes('*')) return granted.filter(isScope);
  return granted.includes('*') ? [...wanted] : wanted.filter((s) => granted.includes(s));
}
