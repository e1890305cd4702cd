import { beforeEach, describe, expect, it } from 'vitest';
import { clearTemplateCache } from '../../../src/templates/templateStore';
import { withN8n } from '../../support/hostile';
import { callDirect, callInSession, savedN8nWorkflow } from '../../support/tools';
import { loadTemplates } from '../../templates/templateCatalog';
import { SLACK_REPORT, WEBHOOK_RELAY } from '../../templates/templateFixtures';

beforeEach(async () => {
  clearTemplateCache();
  await loadTemplates();
});

/** get_template through the server in workerd; deploying its workflow with create_workflow against the fake n8n. */
describe('get_template', () => {
  it('answers the workflow with its source, licence, author, findings and the credentials to attach', async () => {
    const answer = await callInSession('get_template', { id: SLACK_REPORT.id });
    expect(answer.isError).toBe(false);
    expect(answer.json).toEqual({
      id: SLACK_REPORT.id,
      name: SLACK_REPORT.name,
      description: SLACK_REPORT.description,
      node_types: ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.slack'],
      categories: [],
      licence: 'MIT',
      author: 'ada',
      source: { repo: 'someone/workflows', commit: SLACK_REPORT.source.commit, path: SLACK_REPORT.source.path, link: SLACK_REPORT.source.link },
      attribution: expect.stringContaining(SLACK_REPORT.source.link),
      validation: { valid: true, errors: 0, warnings: 0, first: [] },
      fixes: [],
      credentials: [{ node: 'Post', types: ['slackApi'] }],
      deploy: expect.stringMatching(/create_workflow/),
      workflow: SLACK_REPORT.workflow,
    });
  });

  it('answers the workflow with the sure fixes made, saying what they changed and what the workflow as written had', async () => {
    const template = (await callInSession('get_template', { id: WEBHOOK_RELAY.id })).json;
    expect(template.fixes).toEqual([
      expect.objectContaining({ kind: 'type_version', node: 'Forward', description: expect.stringMatching(/^typeVersion 9 → /) }),
    ]);
    expect(template.unfixed).toEqual({ valid: false, errors: 1, warnings: 0 });
    expect(template.workflow.nodes.find((n: { name: string }) => n.name === 'Forward').typeVersion).toBe(4.5);
    expect(template.attribution).toMatch(/changed/);
  });

  it('says the findings validate_workflow gives for the workflow it answers', async () => {
    const template = (await callInSession('get_template', { id: WEBHOOK_RELAY.id })).json;
    const checked = await callInSession('validate_workflow', { workflow: template.workflow });
    expect(checked.structuredContent).toMatchObject({ valid: template.validation.valid, errors: [expect.objectContaining({ node: 'Forward' })] });
    expect((checked.structuredContent!.errors as unknown[]).length).toBe(template.validation.errors);
  });

  it('deploys through create_workflow: a valid template is saved, without credentials; one with errors is refused with them', async () => {
    const { workflow } = (await callInSession('get_template', { id: SLACK_REPORT.id })).json;
    const created = await callDirect('create_workflow', { workflow }, { env: withN8n() });
    expect(created.isError).toBe(false);
    const saved = await savedN8nWorkflow(created.json.id);
    expect(saved.nodes.map((n: { name: string }) => n.name)).toEqual(SLACK_REPORT.workflow.nodes.map((n) => n.name));
    expect(saved.nodes.every((n: Record<string, unknown>) => !('credentials' in n))).toBe(true);
    const broken = (await callInSession('get_template', { id: WEBHOOK_RELAY.id })).json.workflow;
    const refused = await callDirect('create_workflow', { workflow: broken }, { env: withN8n() });
    expect(refused).toMatchObject({ isError: true, json: { saved: false, errors: [expect.objectContaining({ node: 'Forward' })] } });
  });

  it('answers an unknown id as an error, and one past 100 characters as invalid params', async () => {
    for (const id of ['0123456789ab', '../../catalog:current', '__proto__']) {
      expect(await callInSession('get_template', { id })).toMatchObject({ isError: true, text: expect.stringContaining(`No template ${id}`) });
    }
    expect(await callInSession('get_template', { id: 'a'.repeat(101) })).toMatchObject({ isError: true, text: expect.stringMatching(/id/) });
  });
});
