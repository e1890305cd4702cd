import { createServer, type IncomingMessage } from 'node:http';
import { match, requestError, responseError } from './contract';
import { FakeN8nState, type Answer } from './state';

/** Features an instance's license may lack, by the path that needs them (n8n answers 403). */
const LICENSED: Record<string, string> = { '/variables': 'feat:variables', '/projects': 'feat:projectRole:admin', '/users': 'feat:advancedPermissions' };

export interface FakeN8n {
  /** The instance URL, as N8N_API_URL takes it. */
  url: string;
  state: FakeN8nState;
  /** Requests or answers that broke n8n's OpenAPI contract; a passing run leaves this empty. */
  violations: string[];
  /** Every request received (but the test's levers), as `METHOD /path?query`. */
  requests: string[];
  /** The key the instance accepts now (to test a wrong key, change it). */
  apiKey: string;
  /** License features this instance lacks. */
  unlicensed: Set<string>;
  /** Operations this instance does not have (an older n8n), as `GET /credentials`. */
  missing: Set<string>;
  /**
   * Failures to answer in place of n8n, as a proxy in front of it or an n8n that fell over would:
   * `times` answers of `status` to `request` (`POST /api/v1/workflows`; a `*` stands for one path
   * segment, an id the test cannot know), outside n8n's contract; with
   * `afterHandling`, n8n handles the request first and only its answer is lost. `delayMs` holds the
   * answer that long (without `status`: n8n's own answer, late), so that a test can change n8n meanwhile.
   */
  faults: Fault[];
  /** How long an active workflow's webhook takes to answer. */
  webhookDelayMs: number;
  stop(): Promise<void>;
}

export interface Fault {
  request: string;
  /** The status answered instead of n8n's; none: n8n answers, `delayMs` late. */
  status?: number;
  times: number;
  delayMs?: number;
  afterHandling?: boolean;
  /** Requests that match to let through first (default none): a fault on the second save, not the first. */
  skip?: number;
}

/**
 * The head of n8n's editor page as n8n writes it (its start command's generateConfigTags): base64
 * JSON in meta tags, the release in the Sentry one (test/fixtures/n8n/editor-1.123.81.html is a real one's).
 */
function editorPage(release: string): string {
  const meta = (name: string, value: string) => `<meta name="n8n:config:${name}" content="${Buffer.from(value).toString('base64')}">`;
  const sentry = JSON.stringify({ dsn: '', environment: 'development', release: `n8n@${release}` });
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8" />\n${meta('rest-endpoint', 'rest')}${meta('sentry', sentry)}\n<title>n8n.io - Workflow Automation</title>\n</head>\n<body></body>\n</html>\n`;
}

/** Whether a fault's `METHOD /path` (`*` for any one segment) is this request's. */
const faultMatches = (pattern: string, request: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`).test(request);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A stand-in for an n8n instance's public API (/api/v1) driven by n8n's OpenAPI document: it refuses
 * what n8n refuses (unknown paths and query parameters, invalid or read-only body fields, a missing or
 * wrong X-N8N-API-KEY), answers from FakeN8nState, and checks each answer against the document.
 */
export async function startFakeN8n(apiKey = 'n8n_api_test_key'): Promise<FakeN8n> {
  const fake = {
    state: new FakeN8nState(),
    violations: [] as string[],
    requests: [] as string[],
    apiKey,
    unlicensed: new Set<string>(),
    missing: new Set<string>(),
    faults: [] as Fault[],
    webhookDelayMs: 0,
  };

  const answer = async (request: IncomingMessage): Promise<Answer> => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname.startsWith('/__fake/')) return control(url.pathname, request);
    // An instance served under a path of its own (N8N_PATH), named after the release it runs: its
    // editor page carries that release; the rest is the one instance. At / there is no editor page.
    const based = /^\/n8n-(\d+\.\d+\.\d+)(\/.*)?$/.exec(url.pathname);
    if (based) {
      if ((based[2] ?? '/') === '/') return (fake.requests.push(`${request.method} ${url.pathname}`), [200, editorPage(based[1]!)]);
      url.pathname = based[2]!;
    }
    fake.requests.push(`${request.method} ${url.pathname}${url.search}`);
    const matching = fake.faults.find((f) => f.times > 0 && faultMatches(f.request, `${request.method} ${url.pathname}`));
    // A fault with `skip` lets that many matching requests through first.
    const fault = matching?.skip ? (matching.skip--, undefined) : matching;
    if (fault) fault.times--;
    const failure: Answer | undefined =
      fault?.status === undefined ? undefined : [fault.status, { message: fault.status === 429 ? 'Too Many Requests' : 'Service Unavailable' }];
    const late = async <T>(answer: T) => (fault?.delayMs ? new Promise<T>((resolve) => setTimeout(() => resolve(answer), fault.delayMs)) : answer);
    if (failure && !fault?.afterHandling) return late(failure);
    const answered = await handle(request, url);
    return late(failure ?? answered);
  };

  const handle = async (request: IncomingMessage, url: URL): Promise<Answer> => {
    if (url.pathname.startsWith('/webhook/')) return webhook(request, url.pathname.slice('/webhook/'.length));
    if (!url.pathname.startsWith('/api/v1/')) return [404, 'Cannot GET ' + url.pathname];
    const path = url.pathname.slice('/api/v1'.length);
    const found = match(request.method ?? 'GET', path);
    // Express's own answers for routes n8n does not have: not n8n's JSON.
    if (found === undefined || (typeof found === 'object' && fake.missing.has(found.key))) return [404, `Cannot ${request.method} ${url.pathname}`];
    if (found === 'method-not-allowed') return [405, 'Method Not Allowed'];
    const key = request.headers['x-n8n-api-key'];
    if (key === undefined) return [401, { message: "'X-N8N-API-KEY' header required" }];
    if (key !== fake.apiKey) return [401, { message: 'unauthorized' }];
    const text = await readBody(request);
    let body: unknown;
    if (text) {
      if (!String(request.headers['content-type']).startsWith('application/json')) return [415, { message: 'Unsupported Media Type' }];
      try {
        body = JSON.parse(text);
      } catch {
        return [400, { message: 'Unexpected token in JSON' }];
      }
    }
    const refused = requestError(found, url.searchParams, body, text !== '');
    if (refused) {
      fake.violations.push(`${found.key}: ${refused}`);
      return [400, { message: refused }];
    }
    const feature = Object.entries(LICENSED).find(([prefix]) => path.startsWith(prefix))?.[1];
    if (feature && fake.unlicensed.has(feature)) {
      return [403, { message: `Your license does not allow for ${feature}. To enable ${feature}, please upgrade to a license that supports this feature.` }];
    }
    const [status, out] = fake.state.handlers[found.key]!({ params: found.params, query: url.searchParams, body });
    const wrong = responseError(found, status, out);
    if (wrong) fake.violations.push(wrong);
    return [status, out];
  };

  /**
   * n8n's production webhooks (outside its public API, so outside the contract): an active workflow's
   * Webhook node answers at `/webhook/<path>` as n8n does by default ("Workflow was started") and
   * leaves an execution; after `webhookDelayMs`, standing for a workflow that answers when its last
   * node is done. Anything else is n8n's 404 for a webhook that is not registered.
   */
  const webhook = async (request: IncomingMessage, path: string): Promise<Answer> => {
    const workflowId = fake.state.webhookWorkflow(path);
    if (workflowId === undefined) return [404, { code: 404, message: `The requested webhook "${request.method} ${path}" is not registered.` }];
    const text = await readBody(request);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = text;
    }
    // A caller that gives up (closes its connection) is not answered later.
    await new Promise<void>((resolve) => {
      const gone = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => (request.socket.off('close', gone), resolve()), fake.webhookDelayMs);
      request.socket.once('close', gone);
    });
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.state.addWebhookExecution(workflowId, { headers: { ...request.headers }, query: Object.fromEntries(url.searchParams), body, url: url.href });
    return [200, { message: 'Workflow was started' }];
  };

  /**
   * The test's levers, for tests in other processes than the one running the fake: GET violations, requests;
   * POST config { apiKey?, unlicensed?, missing?, faults?, webhookDelayMs?, cannotPublish? }; POST executions { workflowId, status, items } or
   * { workflowId, execution } (one a real n8n stored) → { id }.
   */
  const control = async (path: string, request: IncomingMessage): Promise<Answer> => {
    if (path === '/__fake/violations') return [200, fake.violations];
    if (path === '/__fake/requests') return [200, fake.requests];
    const body = JSON.parse((await readBody(request)) || '{}');
    if (path === '/__fake/config') {
      if (body.apiKey !== undefined) fake.apiKey = body.apiKey;
      if (body.unlicensed !== undefined) fake.unlicensed = new Set(body.unlicensed);
      if (body.missing !== undefined) fake.missing = new Set(body.missing);
      if (body.faults !== undefined) fake.faults = body.faults;
      if (body.webhookDelayMs !== undefined) fake.webhookDelayMs = body.webhookDelayMs;
      if (body.cannotPublish !== undefined) fake.state.cannotPublish = body.cannotPublish;
      return [
        200,
        {
          apiKey: fake.apiKey,
          unlicensed: [...fake.unlicensed],
          missing: [...fake.missing],
          faults: fake.faults,
          webhookDelayMs: fake.webhookDelayMs,
          cannotPublish: fake.state.cannotPublish,
        },
      ];
    }
    if (path === '/__fake/executions' && body.execution) return [200, { id: fake.state.addRecordedExecution(body.workflowId, body.execution) }];
    if (path === '/__fake/executions') return [200, { id: fake.state.addExecution(body.workflowId, body.status ?? 'success', body.items ?? 1) }];
    return [404, { message: 'no such control' }];
  };

  const server = createServer((request, response) => {
    answer(request).then(
      ([status, body]) => {
        if (body === undefined) return response.writeHead(status).end();
        const json = typeof body !== 'string';
        response.writeHead(status, { 'content-type': json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8' });
        response.end(json ? JSON.stringify(body) : body);
      },
      (error: unknown) => {
        fake.violations.push(`fake n8n crashed: ${String(error)}`);
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Internal Server Error' }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
