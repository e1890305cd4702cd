import { describe, expect, it } from 'vitest';
import { servedTemplate, summariseValidation } from '../../src/templates/validation';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';
import { CHAT_AGENT, SLACK_REPORT, WEBHOOK_RELAY } from './templateFixtures';

describe('summariseValidation', () => {
  it('finds nothing in a template the catalog describes, its credentials taken out', () => {
    expect(summariseValidation(SLACK_REPORT, n8nCatalog)).toEqual({ valid: true, errors: 0, warnings: 0, first: [] });
    expect(summariseValidation(CHAT_AGENT, n8nCatalog).valid).toBe(true);
  });

  it("counts validate_workflow's errors and quotes them with their node", () => {
    expect(summariseValidation(WEBHOOK_RELAY, n8nCatalog)).toEqual({
      valid: false,
      errors: 1,
      warnings: 0,
      first: [expect.stringMatching(/^Forward: HTTP Request has no typeVersion 9/)],
    });
  });

  it('counts a missing credential only where the template does not list it for the user to attach', () => {
    const unlisted = summariseValidation({ ...SLACK_REPORT, credentials: [] }, n8nCatalog);
    expect(unlisted).toMatchObject({ valid: true, warnings: 1, first: [expect.stringMatching(/^Post: Slack needs a "slackApi" credential/)] });
  });

  it('quotes at most three findings, errors before warnings', () => {
    const broken = {
      ...SLACK_REPORT,
      credentials: [],
      workflow: {
        ...SLACK_REPORT.workflow,
        nodes: [...SLACK_REPORT.workflow.nodes, node('Old one', 'httpRequest', 9), node('Older one', 'httpRequest', 8), node('Oldest one', 'httpRequest', 7)],
      },
    };
    const summary = summariseValidation(broken, n8nCatalog);
    expect(summary.errors).toBe(3);
    expect(summary.warnings).toBeGreaterThanOrEqual(1);
    expect(summary.first).toHaveLength(3);
    expect(summary.first.every((m) => /has no typeVersion/.test(m))).toBe(true);
  });
});

describe('servedTemplate', () => {
  it('serves a template that needs no fix as its author wrote it', () => {
    expect(servedTemplate(SLACK_REPORT, n8nCatalog)).toEqual({ ...SLACK_REPORT, validation: summariseValidation(SLACK_REPORT, n8nCatalog), fixes: [] });
  });

  it("makes autofix_workflow's sure fixes, lists them, and validates what is served; what no fix can guess stays", () => {
    const served = servedTemplate(WEBHOOK_RELAY, n8nCatalog);
    expect(served.fixes).toEqual([{ kind: 'type_version', node: 'Forward', path: 'typeVersion', description: expect.stringMatching(/^typeVersion 9 → 4\.5/) }]);
    expect(served.workflow.nodes.find((n) => n.name === 'Forward')!.typeVersion).toBe(4.5);
    expect(served.unfixed).toEqual({ valid: false, errors: 1, warnings: 0 });
    expect(served.validation).toMatchObject({ valid: false, errors: 1, first: [expect.stringMatching(/^Forward: Required parameter "URL"/)] });
    // The template as collected is left as it was.
    expect(WEBHOOK_RELAY.workflow.nodes.find((n) => n.name === 'Forward')!.typeVersion).toBe(9);
  });

  it('gives webhook triggers without an id the same ids at every build, none shared with another template', () => {
    const hooks = {
      ...WEBHOOK_RELAY,
      workflow: {
        name: 'Two hooks',
        nodes: [node('In', 'webhook', 2, { path: 'in', httpMethod: 'POST' }), node('Also in', 'webhook', 2, { path: 'also', httpMethod: 'POST' })],
        connections: connect(),
      },
    };
    const ids = (template: typeof hooks) => servedTemplate(template, n8nCatalog).workflow.nodes.map((n) => n.webhookId);
    expect(ids(hooks)).toEqual(['c3c3c3c3-c3c3-4000-8000-000000000001', 'c3c3c3c3-c3c3-4000-8000-000000000002']);
    expect(ids(hooks)).toEqual(ids(hooks));
    expect(ids({ ...hooks, id: 'd4d4d4d4d4d4' })[0]).toBe('d4d4d4d4-d4d4-4000-8000-000000000001');
    expect(servedTemplate(hooks, n8nCatalog).fixes.map((f) => f.kind)).toEqual(['webhook_id', 'webhook_id']);
  });
});
