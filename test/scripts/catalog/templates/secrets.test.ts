import { describe, expect, it } from 'vitest';
import { entropy, findSecret } from '../../../../scripts/catalog/templates/secrets';

/** Secrets are built here from parts, so that no file of the repository holds one whole. */
const join = (...parts: string[]) => parts.join('');
const RANDOM = 'q8Zr2LxT5vKw9NcB4mYh7PjD3sGf6AeU1oWi0RtQ';

/** A workflow with `value` as one node's parameter `name`. */
const workflow = (name: string, value: unknown) => ({
  name: 'W',
  nodes: [{ name: 'Call', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [0, 0], parameters: { [name]: value } }],
  connections: {},
});

describe('findSecret', () => {
  it.each([
    ['private key', join('-----BEGIN RSA ', 'PRIVATE KEY-----\n', 'MIIEowIBAAKCAQEA', RANDOM, '\n-----END RSA PRIVATE KEY-----')],
    ['AWS access key', join('AKIA', 'IOSFODNN7Q2XKEYZ')],
    ['GitHub token', join('gh', 'p_', RANDOM.slice(0, 36))],
    ['GitHub token', join('github', '_pat_', '11ABCDEFG0', RANDOM)],
    ['Slack token', join('xo', 'xb-', '1234567890-', RANDOM.slice(0, 24))],
    ['Slack webhook URL', join('https://hooks.slack', '.com/services/', 'T0123ABCD/B0456EFGH/', RANDOM.slice(0, 24))],
    ['Discord webhook URL', join('https://discord', '.com/api/webhooks/', '123456789012345678/', RANDOM)],
    ['Microsoft Teams webhook URL', join('https://acme.webhook', '.office.com/webhookb2/', '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0@', RANDOM)],
    ['Telegram bot token', join('123456789', ':AA', RANDOM.slice(0, 33))],
    ['OpenAI key', join('sk-', 'proj-', RANDOM, RANDOM.slice(0, 8))],
    ['OpenAI key', join('sk-', RANDOM.slice(0, 20), 'T3Blbk', 'FJ', RANDOM.slice(0, 20))],
    ['Anthropic key', join('sk-', 'ant-', 'api03-', RANDOM)],
    ['Google API key', join('AI', 'za', 'Sy', RANDOM.slice(0, 33))],
    ['Stripe key', join('sk', '_live_', RANDOM.slice(0, 24))],
    ['JWT', join('eyJ', 'hbGciOiJIUzI1NiJ9', '.eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', '.', RANDOM.slice(0, 30))],
    ['bearer token', join('Bea', 'rer ', RANDOM)],
    ['basic auth header', join('Ba', 'sic ', 'dXNlcjpwYXNzd29yZA==')],
    ['password in a URL', join('postgres://admin', ':s3cr3tPass', '@db.internal:5432/app')],
    ['token in a URL', join('https://api.acme.io/v1/items?', 'api_key=', RANDOM.slice(0, 24))],
  ])('finds a %s wherever it stands', (kind, secret) => {
    expect(findSecret(workflow('url', secret))).toEqual({ path: '.nodes[0].parameters.url', kind });
    // In a sticky note's text as much as in a parameter.
    expect(findSecret({ workflow: workflow('content', `Send the header Authorization: ${secret} for now`) })?.kind).toBe(kind);
  });

  it('finds a random-looking literal value of a credential-like parameter, by its name or the name beside it', () => {
    expect(findSecret(workflow('apiKey', RANDOM.slice(0, 24)))).toEqual({ path: '.nodes[0].parameters.apiKey', kind: 'literal value of "apiKey"' });
    const header = { parameters: [{ name: 'X-API-Key', value: RANDOM.slice(0, 24) }] };
    expect(findSecret(workflow('headerParameters', header))).toEqual({
      path: '.nodes[0].parameters.headerParameters.parameters[0].value',
      kind: 'literal value of "X-API-Key"',
    });
  });

  it('finds any literal password, random-looking or not', () => {
    expect(findSecret(workflow('password', 'hunter2!'))?.kind).toBe('literal value of "password"');
  });

  it('passes expressions, placeholders and ordinary values of credential-like parameters', () => {
    for (const value of ['={{ $env.API_KEY }}', 'Bearer {{ $json.token }}', 'YOUR_API_KEY', '<your token>', 'xxxxxxxxxxxxxxxxxxxx', '', 'short']) {
      expect(findSecret(workflow('apiKey', value)), value).toBeNull();
    }
    expect(findSecret(workflow('password', '={{ $credentials.password }}'))).toBeNull();
    // Long words are not random: a token's name is not its value.
    expect(findSecret(workflow('accessToken', 'refreshTokenFromPreviousStep'))).toBeNull();
  });

  it('passes a placeholder in the shape of a secret', () => {
    expect(findSecret(workflow('content', 'Set the header to: Bearer YOUR_PERSONAL_ACCESS_TOKEN'))).toBeNull();
    expect(findSecret(workflow('jsCode', 'const key = `-----BEGIN PRIVATE KEY-----\n[INSERT YOUR KEY HERE]\n-----END PRIVATE KEY-----`'))).toBeNull();
    expect(findSecret(workflow('content', 'Choose Basic Authentication'))).toBeNull();
  });

  it('passes a clean template', () => {
    const clean = {
      name: 'Daily report',
      nodes: [
        { name: 'Every day', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1.2, position: [0, 0], parameters: { rule: { interval: [{}] } } },
        {
          name: 'Fetch',
          type: 'n8n-nodes-base.httpRequest',
          typeVersion: 4.2,
          position: [200, 0],
          parameters: { url: 'https://api.example.com/report?format=json', authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
        },
        {
          name: 'Note',
          type: 'n8n-nodes-base.stickyNote',
          typeVersion: 1,
          position: [0, -200],
          parameters: { content: 'Attach your API token as a Header Auth credential.' },
        },
      ],
      connections: { 'Every day': { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] } },
    };
    expect(findSecret(clean)).toBeNull();
  });

  it('measures how random a text looks', () => {
    expect(entropy('aaaaaaaa')).toBe(0);
    expect(entropy('abcd')).toBe(2);
    expect(entropy(RANDOM)).toBeGreaterThan(4);
  });
});
