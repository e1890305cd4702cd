/**
 * Finds secrets left in a workflow: keys and tokens of known shapes anywhere in it, and literal values
 * of credential-like parameters (by name, or the name beside the value in n8n's name/value lists). A
 * template holding one is left out whole, never redacted: what else of the author's it gives away
 * cannot be known. Expressions ("={{ $env.TOKEN }}") and placeholders ("YOUR_API_KEY") are not secrets.
 */

export interface SecretFinding {
  /** Where: a JSON path into the workflow. */
  path: string;
  /** What shape of secret (never the secret itself). */
  kind: string;
}

/** Secrets recognisable by their shape wherever they stand. */
const SHAPES: [kind: string, pattern: RegExp][] = [
  ['private key', /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----\s*[A-Za-z0-9+/=\s]{40,}/],
  ['AWS access key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/],
  ['Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['Slack webhook URL', /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+/],
  ['Discord webhook URL', /discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/],
  ['Microsoft Teams webhook URL', /\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@-]{20,}/],
  ['Telegram bot token', /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/],
  ['OpenAI key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}/],
  ['Anthropic key', /\bsk-ant-[A-Za-z0-9_-]{30,}/],
  ['Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/],
  ['Stripe key', /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b/],
  ['JWT', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ['bearer token', /\bBearer\s+(?!\{\{)[A-Za-z0-9._~+/-]{20,}=*/],
  // A header value (alone, or after "Authorization"); base64 of "user:password" has capitals inside (not "Basic Authentication").
  [
    'basic auth header',
    /(?:^|[Aa]uthorization\W{0,3})Basic\s+[A-Za-z0-9+/](?=[A-Za-z0-9+/]*[A-Z][A-Za-z0-9+/]*[A-Z])[A-Za-z0-9+/]{7,}={0,2}(?![A-Za-z0-9+/=])/,
  ],
  ['password in a URL', /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@{}]+:[^\s@/{}]{3,}@[^\s]/i],
  ['token in a URL', /[?&](?:access_token|api_?key|apikey|token|key|secret|sig|signature)=(?!\{\{)[A-Za-z0-9._~%-]{16,}/i],
];

/** Names of parameters that hold a credential. */
const CREDENTIAL_NAME =
  /(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passwd|auth(?:orization)?|bearer|access[_-]?key|private[_-]?key|client[_-]?secret|signing[_-]?key)$/i;
const PASSWORD_NAME = /passw(?:or)?d$|passwd$/i;
/** Values that stand in for a credential rather than being one. */
const PLACEHOLDER =
  /your|xxx|\*\*\*|example|placeholder|change[_-]?me|replace|insert|enter|<|>|\.\.\.|…|^(?:test|demo|secret|password|token|none|null|undefined)$/i;

/** Bits per character of a text's character distribution (Shannon entropy). */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

const isExpression = (value: string) => value.startsWith('=') || value.includes('{{');

/** Whether a literal value of a credential-like parameter is a credential: random-looking, or any password. */
function credentialValue(name: string, value: string): boolean {
  const text = value.trim();
  if (text === '' || isExpression(text) || PLACEHOLDER.test(text)) return false;
  if (PASSWORD_NAME.test(name)) return text.length >= 4;
  return text.length >= 16 && !/\s/.test(text) && /[A-Za-z]/.test(text) && /\d/.test(text) && entropy(text) >= 3.2;
}

/** The first secret in `value` (a workflow), or null. */
export function findSecret(value: unknown): SecretFinding | null {
  const stack: { value: unknown; path: string; name: string }[] = [{ value, path: '', name: '' }];
  while (stack.length > 0) {
    const { value: at, path, name } = stack.pop()!;
    if (typeof at === 'string') {
      const shape = SHAPES.find(([, pattern]) => {
        const match = pattern.exec(at);
        return match !== null && !PLACEHOLDER.test(match[0]);
      });
      if (shape) return { path, kind: shape[0] };
      if (CREDENTIAL_NAME.test(name) && credentialValue(name, at)) return { path, kind: `literal value of "${name}"` };
    } else if (Array.isArray(at)) {
      at.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, name }));
    } else if (typeof at === 'object' && at !== null) {
      const object = at as Record<string, unknown>;
      // n8n's name/value lists (HTTP headers, query parameters): the value is named by its sibling.
      const sibling = typeof object.name === 'string' ? object.name : typeof object.key === 'string' ? object.key : undefined;
      for (const [key, item] of Object.entries(object)) {
        stack.push({ value: item, path: `${path}.${key}`, name: key === 'value' && sibling !== undefined ? sibling : key });
      }
    }
  }
  return null;
}
