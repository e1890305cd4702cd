/**
 * n8n API keys at rest (issue 41): AES-256-GCM under a key ring from the Worker secret CONNECTION_KEYS,
 * `id:base64key` entries, comma-separated, the newest first. A sealed value names the id of the key that
 * sealed it, so a new key put in front seals what is written from then on while the older ones still
 * open what they sealed; `needsResealing` says which to seal again before an old key is dropped. The
 * record's own name is the additional data: a sealed key moved to another record does not open. Pure
 * (Web Crypto), for the Worker and `npm run keys` alike.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const ID = /^[A-Za-z0-9_-]{1,32}$/;

export interface KeyRing {
  /** The id new values are sealed under. */
  current: string;
  keys: ReadonlyMap<string, CryptoKey>;
}

/** Why a ring or a sealed value was refused, in words that name the fix; never the secret itself. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** CONNECTION_KEYS read into a ring: each entry `id:key`, the key 32 random bytes in base64. */
export async function keyRing(text: string | undefined): Promise<KeyRing> {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new SecretBoxError('CONNECTION_KEYS is not set: add one key, e.g. `k1:` followed by 32 random bytes in base64 (npm run keys -- secret)');
  const keys = new Map<string, CryptoKey>();
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    if (!ID.test(id)) throw new SecretBoxError(`CONNECTION_KEYS entry ${index + 1} has no id: write it as id:base64key (id of letters, digits, - or _)`);
    if (keys.has(id)) throw new SecretBoxError(`CONNECTION_KEYS names the key id "${id}" twice: give each key its own id`);
    const bytes = fromBase64(entry.slice(colon + 1));
    if (!bytes || bytes.byteLength !== KEY_BYTES)
      throw new SecretBoxError(`CONNECTION_KEYS key "${id}" is not ${KEY_BYTES} bytes in base64: make one with npm run keys -- secret`);
    keys.set(id, await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']));
  }
  return { current: entries[0]!.slice(0, entries[0]!.indexOf(':')), keys };
}

/** `v1.<key id>.<iv>.<ciphertext and tag>`, base64url; `context` (the record's name) is bound to it. */
export async function seal(plaintext: string, ring: KeyRing, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(context) },
    ring.keys.get(ring.current)!,
    new TextEncoder().encode(plaintext),
  );
  return [VERSION, ring.current, toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join('.');
}

/** The plaintext of a value `seal` made for this context; refused when it was altered, moved, or its key is gone. */
export async function open(sealed: string, ring: KeyRing, context: string): Promise<string> {
  const [version, id, ivText, dataText, ...rest] = sealed.split('.');
  const iv = fromBase64(ivText ?? '');
  const data = fromBase64(dataText ?? '');
  if (version !== VERSION || rest.length > 0 || !id || !iv || iv.byteLength !== IV_BYTES || !data) throw new SecretBoxError('not a sealed value');
  const key = ring.keys.get(id);
  if (!key) throw new SecretBoxError(`sealed under the key "${id}", which CONNECTION_KEYS no longer holds: put it back, or add the connection's n8n key again`);
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(context) }, key, data);
    return new TextDecoder().decode(plain);
  } catch {
    throw new SecretBoxError('does not open: it was altered or belongs to another record');
  }
}

/** Whether a value is sealed under a key other than the ring's newest (seal it again before that key is dropped). */
export const needsResealing = (sealed: string, ring: KeyRing): boolean => sealed.split('.')[1] !== ring.current;
