/**
 * Templates as collect.ts writes them, over nodes test/support/n8nCatalog.ts describes: what the
 * template tests build indexes and catalogs from (templateCatalog.ts puts them in KV).
 */
import type { CollectedTemplate, TemplateRecord } from '../../src/templates/template';
import { connect, node } from '../support/n8nCatalog';

const source = (path: string, licence = 'MIT', author = 'ada') => ({
  repo: 'someone/workflows',
  commit: 'c'.repeat(40),
  path,
  link: `https://github.com/someone/workflows/blob/${'c'.repeat(40)}/${path}`,
  licence,
  author,
});

const sticky = (name: string, content: string) => node(name, 'stickyNote', 1, { content }, { position: [-400, -200] });

/** Posts to Slack every morning: valid against the fixture catalog, its Slack credential taken out. */
export const SLACK_REPORT: CollectedTemplate = {
  id: 'a1a1a1a1a1a1',
  name: 'Daily Slack report',
  description: 'Posts a summary to a Slack channel every morning.',
  source: source('reports/slack.json'),
  workflow: {
    name: 'Daily Slack report',
    nodes: [
      sticky('Note', '## Daily Slack report\nPosts a summary to a Slack channel every morning.'),
      node('Every morning', 'scheduleTrigger', 1.2, { rule: { interval: [{ triggerAtHour: 8 }] } }),
      node('Post', 'slack', 2.2, { select: 'channel', channelId: { __rl: true, mode: 'name', value: '#general' }, text: 'Good morning' }),
    ],
    connections: connect(['Every morning', 'Post']),
    settings: { executionOrder: 'v1' },
  },
  credentials: [{ node: 'Post', types: ['slackApi'] }],
};

/** A chat agent with OpenAI and a calculator tool. */
export const CHAT_AGENT: CollectedTemplate = {
  id: 'b2b2b2b2b2b2',
  name: 'Chat agent with a calculator',
  description: null,
  source: source('ai/agent.json', 'Apache-2.0', 'grace'),
  workflow: {
    name: 'Chat agent with a calculator',
    nodes: [
      node('Chat', '@n8n/n8n-nodes-langchain.chatTrigger', 1.1, {}, { webhookId: '0c8e4c1e-3a4f-4c55-9a4c-6c1a3d0e6b11' }),
      node('Agent', '@n8n/n8n-nodes-langchain.agent', 2.2, { options: {} }),
      node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.2, { model: 'gpt-4o-mini', options: {} }),
      node('Calculator', '@n8n/n8n-nodes-langchain.toolCalculator', 1),
    ],
    connections: connect(['Chat', 'Agent'], ['Model', 'Agent', 0, 'ai_languageModel'], ['Calculator', 'Agent', 0, 'ai_tool']),
  },
  credentials: [{ node: 'Model', types: ['openAiApi'] }],
};

/**
 * A webhook that calls an API, with a typeVersion n8n never had (one error as written, which
 * autofix_workflow fixes for sure) and no URL to call (the error left once served: no fix can guess it).
 */
export const WEBHOOK_RELAY: CollectedTemplate = {
  id: 'c3c3c3c3c3c3',
  name: 'Relay webhook calls to an API',
  description: 'Receives a webhook and forwards its body to an HTTP endpoint.',
  source: source('http/relay.json'),
  workflow: {
    name: 'Relay webhook calls to an API',
    nodes: [
      node('Hook', 'webhook', 2, { path: 'relay', httpMethod: 'POST' }, { webhookId: '6f1d1b9e-8f0c-4f43-9a7e-2a3f5d8c9b10' }),
      node('Forward', 'httpRequest', 9, { method: 'POST' }),
    ],
    connections: connect(['Hook', 'Forward']),
  },
  credentials: [],
};

export const FIXTURE_TEMPLATES = [SLACK_REPORT, CHAT_AGENT, WEBHOOK_RELAY];

/** A template record over nodes of these types (sticky notes' text in `notes`), valid unless said. */
export function record(
  id: string,
  name: string,
  types: string[],
  { notes = [], ...extra }: Partial<TemplateRecord> & { notes?: string[] } = {},
): TemplateRecord {
  const nodes = [...types.map((type, i) => node(`Step ${i}`, type, 1)), ...notes.map((content, i) => sticky(`Note ${i}`, content))];
  return {
    id,
    name,
    description: null,
    source: source(`${id}.json`),
    workflow: { name, nodes, connections: {} },
    credentials: [],
    validation: { valid: true, errors: 0, warnings: 0, first: [] },
    fixes: [],
    node_types: [...new Set(types)].sort(),
    categories: [],
    ...extra,
  };
}
