/**
 * The id of an n8n port expression (a node's computed inputs or outputs): a 53-bit hash of its text
 * (cyrb53), so the catalog in KV and the port functions bundled with the Worker find each other, and
 * a catalog built from other n8n packages names functions this build may not have.
 */
export function portFunctionId(expression: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < expression.length; i++) {
    const c = expression.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
