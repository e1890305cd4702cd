/**
 * The tasks a template is for, as n8n's template library groups them, assigned at build time by a
 * rule anyone can check: a template is in a category when one of its nodes is (n8n's node-panel
 * category, or a node named for it below), or when its name or description uses one of the
 * category's words. n8n's building blocks (its "Core Nodes": HTTP Request, Code, Webhook…) are in
 * categories such as Development for every workflow alike, so they place a template nowhere.
 */
import { typeName } from '../catalog/search/names';
import { tokenize } from '../catalog/search/tokenize';

export const TEMPLATE_CATEGORIES = [
  'AI',
  'Sales',
  'Marketing',
  'Support',
  'IT Ops',
  'DevOps',
  'Finance',
  'HR',
  'Document Ops',
  'Data',
  'Personal Productivity',
] as const;

export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

interface CategoryRule {
  /** n8n's node-panel categories (NodeSpec.categories) whose nodes put a template here. */
  nodeCategories?: string[];
  /** Nodes that put a template here, by type name without package and without Trigger/Tool (zendeskTrigger → zendesk). */
  nodes?: string[];
  /** Words of a template's name or description that put it here (matched stemmed). */
  words: string[];
}

const RULES: Record<TemplateCategory, CategoryRule> = {
  AI: {
    nodeCategories: ['AI'],
    nodes: ['openAi', 'mistralAi', 'perplexity', 'aiTransform'],
    words: ['ai', 'llm', 'gpt', 'agent', 'chatbot', 'rag', 'embeddings'],
  },
  Sales: { nodeCategories: ['Sales'], words: ['sales', 'lead', 'leads', 'crm', 'deal', 'prospect'] },
  Marketing: { nodeCategories: ['Marketing'], words: ['marketing', 'campaign', 'newsletter', 'seo', 'social'] },
  Support: {
    nodes: ['zendesk', 'freshdesk', 'helpScout', 'intercom', 'zammad', 'freshservice', 'haloPSA', 'serviceNow', 'syncroMsp'],
    words: ['support', 'ticket', 'helpdesk', 'customer'],
  },
  'IT Ops': {
    nodes: ['pagerDuty', 'opsgenie', 'uptimeRobot', 'grafana', 'sentryIo', 'splunk', 'theHive', 'theHiveProject', 'elasticSecurity', 'ssh', 'executeCommand'],
    words: ['monitor', 'monitoring', 'alert', 'incident', 'uptime', 'backup', 'outage', 'security'],
  },
  DevOps: {
    nodes: ['github', 'gitlab', 'bitbucket', 'jenkins', 'travisCi', 'circleCi', 'netlify', 'git', 'awsLambda', 'cloudflare'],
    words: ['devops', 'deploy', 'deployment', 'ci', 'release', 'repository', 'docker', 'kubernetes'],
  },
  Finance: { nodeCategories: ['Finance & Accounting'], words: ['finance', 'invoice', 'payment', 'accounting', 'expense', 'billing'] },
  HR: { nodeCategories: ['HR'], nodes: ['bambooHr', 'workable'], words: ['hr', 'recruiting', 'candidate', 'hiring', 'employee', 'onboarding', 'resume'] },
  'Document Ops': {
    nodeCategories: ['Document Loaders'],
    nodes: ['extractFromFile', 'convertToFile', 'readPdf', 'readBinaryFile', 'readBinaryFiles', 'googleDocs', 'microsoftWord', 'editImage', 'compression'],
    words: ['document', 'documents', 'pdf', 'ocr', 'docs', 'handbook'],
  },
  Data: { nodeCategories: ['Data & Storage', 'Analytics'], words: ['database', 'etl', 'spreadsheet', 'warehouse'] },
  'Personal Productivity': { nodeCategories: ['Productivity'], words: ['productivity', 'calendar', 'todo', 'reminder', 'assistant'] },
};

/** n8n files its building blocks under "Core Nodes": their panel categories place a template nowhere (a node named in a rule still does). */
const BUILDING_BLOCK = 'Core Nodes';

const bare = (type: string): string => typeName(type).replace(/(Trigger|Tool)$/, '');
const ruleNodes = new Map(Object.entries(RULES).map(([category, rule]) => [category, new Set(rule.nodes ?? [])]));
const ruleTerms = new Map(Object.entries(RULES).map(([category, rule]) => [category, new Set(rule.words.flatMap(tokenize))]));

/** A node of a template as the rule reads it: its type and n8n's node-panel categories for it (none when the catalog lacks it). */
export interface CategorisedNode {
  type: string;
  categories: readonly string[];
}

/** The categories of a template with these nodes, name and description, in TEMPLATE_CATEGORIES' order. */
export function categoriesOf(nodes: readonly CategorisedNode[], text: string): TemplateCategory[] {
  const terms = new Set(tokenize(text));
  return TEMPLATE_CATEGORIES.filter((category) => {
    const rule = RULES[category];
    const placing = (n: CategorisedNode) =>
      ruleNodes.get(category)!.has(bare(n.type)) || (!n.categories.includes(BUILDING_BLOCK) && n.categories.some((c) => rule.nodeCategories?.includes(c)));
    return nodes.some(placing) || [...ruleTerms.get(category)!].some((term) => terms.has(term));
  });
}
