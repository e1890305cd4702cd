/**
 * The fake n8n's data: what a small instance holds, kept so create → list → update → delete behave as
 * they do on n8n. Each handler answers [status, body] in the shapes n8n's OpenAPI gives; the server checks
 * every answer against that document, so a shape wrong here fails the tests instead of hiding.
 */
type Json = Record<string, any>;
export type Answer = [status: number, body?: unknown];
export interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
}

const now = () => new Date().toISOString();
let counter = 0;
const newId = () => `fake${String(++counter).padStart(12, '0')}`;
const notFound: Answer = [404, { message: 'Not Found' }];

const STARTED = new Date().toISOString();
const OWNER = { id: 'owner-user-id', email: 'owner@example.com', firstName: 'Ada', lastName: 'Owner', isPending: false, role: 'global:owner' };
/** The owner's personal project, named as n8n names one ("First Last <email>"). */
const PROJECT = {
  id: 'personalProject1',
  name: `${OWNER.firstName} ${OWNER.lastName} <${OWNER.email}>`,
  type: 'personal',
  icon: null,
  description: null,
  customTelemetryTags: [],
  creatorId: OWNER.id,
  createdAt: STARTED,
  updatedAt: STARTED,
};
/**
 * The project as n8n's GET /workflows/{id} embeds it under `shared[]`: with its members, each user
 * whole, as n8n 1.123.81 answers (its SharedWorkflowRepository loads shared.project.projectRelations.user).
 */
const PROJECT_WITH_MEMBERS = {
  ...PROJECT,
  projectRelations: [
    {
      userId: OWNER.id,
      projectId: PROJECT.id,
      createdAt: STARTED,
      updatedAt: STARTED,
      user: {
        id: OWNER.id,
        email: OWNER.email,
        firstName: OWNER.firstName,
        lastName: OWNER.lastName,
        personalizationAnswers: null,
        settings: { userActivated: false },
        disabled: false,
        mfaEnabled: false,
        lastActiveAt: STARTED.slice(0, 10),
        isPending: false,
        createdAt: STARTED,
        updatedAt: STARTED,
      },
    },
  ],
};

/** Pages like n8n: `limit` items, then a `nextCursor` that encodes where the next page starts. */
function paged<T>(items: T[], query: URLSearchParams): Answer {
  const limit = Number(query.get('limit') ?? 100);
  const cursor = query.get('cursor');
  const offset = cursor ? (JSON.parse(Buffer.from(cursor, 'base64').toString()) as { offset: number }).offset : 0;
  const data = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? Buffer.from(JSON.stringify({ offset: offset + limit, limit })).toString('base64') : null;
  return [200, { data, nextCursor: next }];
}

export class FakeN8nState {
  readonly workflows = new Map<string, Json>();
  readonly executions = new Map<string, Json>();
  /** Execution ids count up and are never reused, as n8n's (an autoincrement column) are. */
  private lastExecutionId = 0;
  readonly credentials = new Map<string, Json>();
  readonly tags = new Map<string, Json>();
  readonly users = new Map<string, Json>([[OWNER.id, { ...OWNER, createdAt: now(), updatedAt: now(), mfaEnabled: false }]]);
  readonly variables = new Map<string, Json>();
  /** The owner's personal project is there from the start, as on n8n. */
  readonly projects = new Map<string, Json>([[PROJECT.id, { ...PROJECT }]]);
  /**
   * Every saved version of every workflow, by versionId (n8n 2.x's workflow history): what a publication
   * puts live, so that an active workflow runs its published version whatever was saved since.
   */
  private readonly versions = new Map<string, Json>();
  /** Publish events (activated, deactivated), oldest first, as n8n 2.x records them per version. */
  private readonly publishEvents: Json[] = [];
  /**
   * Whether the API key lacks `workflow:activate`: n8n 2.x then keeps a save of an active workflow as a
   * draft and answers 403, leaving the published version live (its documented PUT /workflows/{id}).
   */
  cannotPublish = false;

  private tag(t: Json) {
    return { id: t.id, name: t.name, createdAt: t.createdAt, updatedAt: t.updatedAt };
  }

  /**
   * A workflow as n8n's API returns it: every field its schema requires; the published version (which
   * names its authors) once active, and the owning project with its members where n8n embeds them
   * (`shared: 'ids'`: a listing's, which names the project by its id only, as n8n 1.123.81's and the
   * 2.41.3 document's GET /workflows do).
   */
  private workflow(w: Json, shared: 'embedded' | 'ids' | 'none' = 'embedded'): Json {
    const { tagIds, ...rest } = w;
    return {
      ...rest,
      activeVersion: w.active ? this.publishedVersion(w) : null,
      tags: (tagIds as string[])
        .map((id) => this.tags.get(id))
        .filter(Boolean)
        .map((t) => this.tag(t!)),
      ...(shared === 'none'
        ? {}
        : {
            shared: [
              {
                role: 'workflow:owner',
                workflowId: w.id,
                projectId: PROJECT.id,
                ...(shared === 'embedded' ? { project: { ...PROJECT_WITH_MEMBERS } } : {}),
                createdAt: w.createdAt,
                updatedAt: w.updatedAt,
              },
            ],
          }),
    };
  }

  /** The version n8n runs, as its API shows it: the published version's own nodes and its publish events. */
  private publishedVersion(w: Json): Json {
    const version = this.versions.get(w.activeVersionId)!;
    return {
      ...version,
      nodeGroups: [],
      authors: `${OWNER.firstName} ${OWNER.lastName}`,
      name: null,
      description: null,
      autosaved: false,
      workflowPublishHistory: this.publishEvents.filter((e) => e.versionId === version.versionId),
    };
  }

  /** Puts a saved version live, as n8n 2.x's publish does, and records the event. */
  private publish(w: Json, versionId: string | null): void {
    const previous = w.activeVersionId;
    Object.assign(w, { active: versionId !== null, activeVersionId: versionId });
    const [event, version] = versionId === null ? ['deactivated', previous] : ['activated', versionId];
    this.publishEvents.push({ id: this.publishEvents.length + 1, workflowId: w.id, versionId: version, event, userId: OWNER.id, createdAt: now() });
  }

  private writeWorkflow(body: Json, existing?: Json): Json {
    const time = now();
    const id = existing?.id ?? newId();
    return {
      id,
      name: body.name,
      description: body.description ?? existing?.description ?? null,
      active: existing?.active ?? false,
      activeVersionId: existing?.activeVersionId ?? null,
      createdAt: existing?.createdAt ?? time,
      updatedAt: time,
      isArchived: false,
      versionId: crypto.randomUUID(),
      versionCounter: (existing?.versionCounter ?? 0) + 1,
      sourceWorkflowId: null,
      triggerCount: 0,
      nodes: body.nodes,
      connections: body.connections,
      nodeGroups: body.nodeGroups ?? [],
      settings: body.settings,
      staticData: body.staticData ?? null,
      meta: null,
      tagIds: existing?.tagIds ?? [],
    };
  }

  /** Saves a workflow (a new one, or over `existing`), keeping the version in the history. */
  private save(body: Json, existing?: Json): Json {
    const workflow = this.writeWorkflow(body, existing);
    this.workflows.set(workflow.id, workflow);
    const { versionId, id: workflowId, nodes, connections, updatedAt } = workflow;
    this.versions.set(versionId, { versionId, workflowId, nodes, connections, createdAt: updatedAt, updatedAt });
    return workflow;
  }

  /** Operation handlers, by the spec's operation key. */
  readonly handlers: Record<string, (call: Call) => Answer> = {
    'GET /workflows': ({ query }) => {
      let list = [...this.workflows.values()];
      if (query.has('active')) list = list.filter((w) => String(w.active) === query.get('active'));
      // n8n matches part of the name (`LIKE '%name%'`, trimmed; SQLite, its default database, ignores case).
      const name = query.get('name')?.trim().toLowerCase();
      if (name !== undefined) list = list.filter((w) => String(w.name).toLowerCase().includes(name));
      if (query.has('tags')) {
        const names = query
          .get('tags')!
          .split(',')
          .map((n) => n.trim());
        list = list.filter((w) => names.every((n) => w.tagIds.some((id: string) => this.tags.get(id)?.name === n)));
      }
      return paged(
        list.map((w) => this.workflow(w, 'ids')),
        query,
      );
    },
    'POST /workflows': ({ body }) => {
      const workflow = this.save(body);
      return [200, { ...this.workflow(workflow), parentFolder: null }];
    },
    'GET /workflows/{workflowId}': ({ params }) => {
      const w = this.workflows.get(params.workflowId!);
      return w ? [200, this.workflow(w)] : notFound;
    },
    // n8n 2.41.3: a save of a published workflow is published too, unless publishIfActive=false (a draft).
    'PUT /workflows/{workflowId}': ({ params, query, body }) => {
      const existing = this.workflows.get(params.workflowId!);
      if (!existing) return notFound;
      const workflow = this.save(body, existing);
      if (workflow.activeVersionId !== null && query.get('publishIfActive') !== 'false') {
        if (this.cannotPublish) {
          const message = 'The workflow was saved as a draft, but the API key lacks the workflow:activate scope to publish it';
          return [403, { message, reason: 'insufficient_api_key_scope', versionId: workflow.versionId }];
        }
        this.publish(workflow, workflow.versionId);
      }
      return [200, this.workflow(workflow, 'none')];
    },
    'DELETE /workflows/{workflowId}': ({ params }) => {
      const w = this.workflows.get(params.workflowId!);
      if (!w) return notFound;
      this.workflows.delete(w.id);
      // n8n deletes a workflow's executions with it (its execution table cascades; checked on n8n 1.123.81 by test/e2e-n8n/tryNodes.test.ts).
      for (const [id, e] of this.executions) if (e.workflowId === w.id) this.executions.delete(id);
      return [200, this.workflow(w)];
    },
    'POST /workflows/{workflowId}/activate': ({ params, body }) => this.setActive(params.workflowId!, true, body?.versionId),
    'POST /workflows/{workflowId}/deactivate': ({ params }) => this.setActive(params.workflowId!, false),
    'GET /workflows/{workflowId}/tags': ({ params }) => {
      const w = this.workflows.get(params.workflowId!);
      return w ? [200, this.workflow(w).tags] : notFound;
    },
    'PUT /workflows/{workflowId}/tags': ({ params, body }) => {
      const w = this.workflows.get(params.workflowId!);
      if (!w) return notFound;
      const ids = (body as { id: string }[]).map((t) => t.id);
      if (ids.some((id) => !this.tags.has(id))) return [404, { message: 'Some tags not found' }];
      w.tagIds = ids;
      return [200, this.workflow(w).tags];
    },

    'GET /executions': ({ query }) => {
      let list = [...this.executions.values()].sort((a, b) => Number(b.id) - Number(a.id));
      for (const field of ['workflowId', 'status'] as const) if (query.has(field)) list = list.filter((e) => e[field] === query.get(field));
      // n8n lists the executions still running only when asked for them (status=running); checked on n8n 1.123.81 by test/e2e-n8n/tryNodes.test.ts.
      if (!query.has('status')) list = list.filter((e) => e.status !== 'running');
      const withData = query.get('includeData') === 'true';
      return paged(
        list.map(({ data, workflowData, createdAt, deletedAt, tracingContext, deduplicationKey, binaryDataSizeBytes, usedPrivateCredentials, ...e }) =>
          withData ? { ...e, data, ...(workflowData ? { workflowData } : {}) } : e,
        ),
        query,
      );
    },
    'GET /executions/{executionId}': ({ params, query }) => {
      const e = this.executions.get(params.executionId!);
      if (!e) return notFound;
      // n8n reads the workflow as it ran with the data, from the same table.
      const { data, workflowData, ...rest } = e;
      return [200, query.get('includeData') === 'true' ? { ...rest, data, ...(workflowData ? { workflowData } : {}) } : rest];
    },
    'DELETE /executions/{executionId}': ({ params }) => {
      const e = this.executions.get(params.executionId!);
      if (!e) return notFound;
      this.executions.delete(params.executionId!);
      const { data, workflowData, ...rest } = e;
      // n8n's spec: this one endpoint returns the id as a number.
      return [200, { ...rest, id: Number(rest.id) }];
    },

    'GET /credentials': ({ query }) =>
      paged(
        [...this.credentials.values()].map(({ id, name, type, createdAt, updatedAt }) => ({
          id,
          name,
          type,
          createdAt,
          updatedAt,
          shared: [{ id: PROJECT.id, name: PROJECT.name, role: 'credential:owner', createdAt, updatedAt }],
        })),
        query,
      ),
    'POST /credentials': ({ body }) => {
      if (body.type === 'unknownApi') return [400, { message: `Credential type "${body.type}" does not exist` }];
      const time = now();
      const credential = { id: body.id ?? newId(), name: body.name, type: body.type, data: body.data, createdAt: time, updatedAt: time };
      this.credentials.set(credential.id, credential);
      return [200, this.credentialOut(credential)];
    },
    'DELETE /credentials/{credentialId}': ({ params }) => {
      const c = this.credentials.get(params.credentialId!);
      if (!c) return notFound;
      this.credentials.delete(c.id);
      return [200, { ...this.credentialOut(c), usageScope: 'project' }];
    },
    'GET /credentials/schema/{credentialTypeName}': ({ params }) =>
      params.credentialTypeName === 'githubApi'
        ? [
            200,
            {
              additionalProperties: false,
              type: 'object',
              properties: { user: { type: 'string' }, accessToken: { type: 'string' } },
              required: ['accessToken'],
            },
          ]
        : notFound,

    'GET /tags': ({ query }) =>
      paged(
        [...this.tags.values()].map((t) => this.tag(t)),
        query,
      ),
    'POST /tags': ({ body }) => {
      if ([...this.tags.values()].some((t) => t.name === body.name)) return [409, { message: 'Tag already exists' }];
      const time = now();
      const tag = { id: newId(), name: body.name, createdAt: time, updatedAt: time };
      this.tags.set(tag.id, tag);
      return [201, this.tag(tag)];
    },
    'GET /tags/{tagId}': ({ params }) => (this.tags.has(params.tagId!) ? [200, this.tag(this.tags.get(params.tagId!)!)] : notFound),
    'PUT /tags/{tagId}': ({ params, body }) => {
      const tag = this.tags.get(params.tagId!);
      if (!tag) return notFound;
      Object.assign(tag, { name: body.name, updatedAt: now() });
      return [200, this.tag(tag)];
    },
    'DELETE /tags/{tagId}': ({ params }) => {
      const tag = this.tags.get(params.tagId!);
      if (!tag) return notFound;
      this.tags.delete(tag.id);
      for (const w of this.workflows.values()) w.tagIds = w.tagIds.filter((id: string) => id !== tag.id);
      return [200, this.tag(tag)];
    },

    'GET /users': ({ query }) =>
      paged(
        [...this.users.values()].map((u) => this.userOut(u, query)),
        query,
      ),
    'POST /users': ({ body }) => {
      const [{ email, role }] = body as [{ email: string; role?: string }];
      if ([...this.users.values()].some((u) => u.email === email)) return [200, { error: `${email} is already a user` }];
      const time = now();
      const user = {
        id: crypto.randomUUID(),
        email,
        firstName: '',
        lastName: '',
        isPending: true,
        role: role ?? 'global:member',
        createdAt: time,
        updatedAt: time,
        mfaEnabled: false,
      };
      this.users.set(user.id, user);
      return [200, { user: { id: user.id, email, inviteAcceptUrl: `https://n8n.example/signup?inviteeId=${user.id}`, emailSent: false } }];
    },
    'GET /users/{id}': ({ params, query }) => {
      const user = this.users.get(params.id!) ?? [...this.users.values()].find((u) => u.email === params.id);
      return user ? [200, this.userOut(user, query)] : notFound;
    },
    'DELETE /users/{id}': ({ params }) => {
      const user = this.users.get(params.id!) ?? [...this.users.values()].find((u) => u.email === params.id);
      if (!user) return notFound;
      if (user.id === OWNER.id) return [403, { message: 'Cannot delete the owner' }];
      this.users.delete(user.id);
      return [204];
    },

    'GET /variables': ({ query }) => paged([...this.variables.values()], query),
    'POST /variables': ({ body }) => {
      if ([...this.variables.values()].some((v) => v.key === body.key)) return [400, { message: `Variable with key ${body.key} already exists` }];
      const variable = { id: newId(), key: body.key, value: body.value, type: 'string', project: null };
      this.variables.set(variable.id, variable);
      return [201];
    },
    'DELETE /variables/{id}': ({ params }) => (this.variables.delete(params.id!) ? [204] : notFound),

    'GET /projects': ({ query }) =>
      paged(
        [...this.projects.values()].map(({ role, scopes, ...p }) => p),
        query,
      ),
    'POST /projects': ({ body }) => {
      const time = now();
      const project = {
        id: newId(),
        name: body.name,
        type: 'team',
        icon: null,
        description: null,
        customTelemetryTags: [],
        creatorId: OWNER.id,
        createdAt: time,
        updatedAt: time,
        role: 'project:admin',
        scopes: ['project:read'],
      };
      this.projects.set(project.id, project);
      return [201, project];
    },
    'DELETE /projects/{projectId}': ({ params }) => (this.projects.delete(params.projectId!) ? [204] : notFound),

    'POST /audit': () => [
      200,
      { 'Credentials Risk Report': { risk: 'credentials', sections: [] }, 'Instance Risk Report': { risk: 'instance', sections: [] } },
    ],
  };

  /** Publishes a version (the saved one unless named) or unpublishes; publishing what is live already changes nothing, as on n8n. */
  private setActive(id: string, active: boolean, versionId?: string): Answer {
    const w = this.workflows.get(id);
    if (!w) return notFound;
    if (!active) {
      if (w.activeVersionId !== null) this.publish(w, null);
      return [200, this.workflow(w)];
    }
    const version = this.versions.get(versionId ?? w.versionId);
    if (!version || version.workflowId !== id) return [404, { message: `Version ${versionId} of workflow ${id} not found` }];
    if (!version.nodes.some((n: Json) => /trigger|webhook/i.test(String(n.type)))) {
      return [400, { message: 'Workflow has no node to start the workflow - at least one trigger, poller or webhook node is required' }];
    }
    if (w.activeVersionId !== version.versionId) this.publish(w, version.versionId);
    return [200, this.workflow(w)];
  }

  private credentialOut({ id, name, type, createdAt, updatedAt }: Json) {
    return { id, name, type, isManaged: false, isGlobal: false, isResolvable: false, resolvableAllowFallback: false, resolverId: null, createdAt, updatedAt };
  }

  private userOut({ role, ...user }: Json, query: URLSearchParams) {
    return query.get('includeRole') === 'true' ? { ...user, role } : user;
  }

  /** The active workflow whose published version has the Webhook node n8n serves at `/webhook/<path>`, if any. */
  webhookWorkflow(path: string): string | undefined {
    const serves = (node: Json) => node.type === 'n8n-nodes-base.webhook' && !node.disabled && String(node.parameters?.path ?? '').replace(/^\/+/, '') === path;
    return [...this.workflows.values()].find((w) => w.active && this.versions.get(w.activeVersionId)!.nodes.some(serves))?.id;
  }

  /** An execution of a workflow, with `items` output items from its one node (for trimming tests); a running one has not stopped. */
  addExecution(workflowId: string, status: 'success' | 'error' | 'running', items = 1): string {
    const output = Array.from({ length: items }, (_, i) => ({ json: { i, text: 'x'.repeat(200) } }));
    return this.storeExecution(workflowId, status, 'manual', 'Start', output);
  }

  /** An execution as a real n8n stored it (a recorded fixture), kept under a new id and `workflowId`. */
  addRecordedExecution(workflowId: string, execution: Json): string {
    const id = String(++this.lastExecutionId);
    this.executions.set(id, { ...structuredClone(execution), id, workflowId });
    return id;
  }

  /**
   * The execution n8n stores for a call of an active workflow's Webhook node, as far as the fake runs it:
   * the node's one item (request headers, lowercased, as Express gives them; params, query, body), the
   * workflow as it ran.
   */
  addWebhookExecution(workflowId: string, request: { headers: Json; query: Json; body: unknown; url: string }): string {
    const w = this.workflows.get(workflowId)!;
    // What runs is the published version, not what was saved since.
    const { versionId, nodes, connections } = this.versions.get(w.activeVersionId)!;
    const node = nodes.find((n: Json) => n.type === 'n8n-nodes-base.webhook' && !n.disabled);
    const json = { headers: request.headers, params: {}, query: request.query, body: request.body, webhookUrl: request.url, executionMode: 'production' };
    const id = this.storeExecution(workflowId, 'success', 'webhook', node.name, [{ json, pairedItem: { item: 0 } }]);
    Object.assign(this.executions.get(id)!, { workflowVersionId: versionId, workflowData: { id: workflowId, name: w.name, versionId, nodes, connections } });
    return id;
  }

  private storeExecution(workflowId: string, status: 'success' | 'error' | 'running', mode: string, node: string, output: Json[]): string {
    const id = String(++this.lastExecutionId);
    const time = now();
    const runData = { [node]: [{ startTime: Date.now(), executionIndex: 0, source: [], executionTime: 3, executionStatus: status, data: { main: [output] } }] };
    this.executions.set(id, {
      id,
      finished: status === 'success',
      mode,
      retryOf: null,
      retrySuccessId: null,
      status,
      createdAt: time,
      startedAt: time,
      stoppedAt: status === 'running' ? null : time,
      deletedAt: null,
      workflowId,
      waitTill: null,
      storedAt: 'db',
      tracingContext: null,
      deduplicationKey: null,
      jsonSizeBytes: 0,
      binaryDataSizeBytes: 0,
      workflowVersionId: null,
      usedPrivateCredentials: false,
      data: { resultData: { runData, lastNodeExecuted: node } },
    });
    return id;
  }
}
