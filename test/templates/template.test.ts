import { describe, expect, it } from 'vitest';
import { nodeTypesOf, stickyNotes, templateRecords } from '../../src/templates/template';
import { spec } from '../support/catalog';
import { CHAT_AGENT, SLACK_REPORT } from './templateFixtures';

const validated = { valid: true, errors: 0, warnings: 0, first: [] };

describe('the template record', () => {
  it('names the node types a workflow uses once each, sorted, sticky notes left out', () => {
    expect(nodeTypesOf(SLACK_REPORT)).toEqual(['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.slack']);
    const twice = { workflow: { ...SLACK_REPORT.workflow, nodes: [...SLACK_REPORT.workflow.nodes, { ...SLACK_REPORT.workflow.nodes[2]!, name: 'Again' }] } };
    expect(nodeTypesOf(twice)).toEqual(nodeTypesOf(SLACK_REPORT));
  });

  it('reads the text of the sticky notes, and only of those', () => {
    expect(stickyNotes(SLACK_REPORT)).toEqual(['## Daily Slack report\nPosts a summary to a Slack channel every morning.']);
    expect(stickyNotes(CHAT_AGENT)).toEqual([]);
  });

  it("adds the node types and the categories the catalog's descriptions of them give", () => {
    const current = [spec('n8n-nodes-base.slack', { categories: ['Communication'] }), spec('@n8n/n8n-nodes-langchain.agent', { categories: ['AI'] })];
    const [slack, agent] = templateRecords(
      [
        { ...SLACK_REPORT, validation: validated, fixes: [] },
        { ...CHAT_AGENT, validation: validated, fixes: [] },
      ],
      current,
    );
    expect(slack).toMatchObject({ id: SLACK_REPORT.id, node_types: nodeTypesOf(SLACK_REPORT), categories: [], validation: validated });
    expect(agent!.categories).toEqual(['AI']);
  });
});
