import { describe, expect, it } from 'vitest';
import { categoriesOf, TEMPLATE_CATEGORIES } from '../../src/templates/categories';

describe('categoriesOf', () => {
  it("places a template by n8n's panel category of one of its nodes", () => {
    expect(categoriesOf([{ type: 'n8n-nodes-base.hubspot', categories: ['Sales'] }], 'Copy contacts')).toEqual(['Sales']);
    expect(categoriesOf([{ type: '@n8n/n8n-nodes-langchain.agent', categories: ['AI', 'Agents'] }], 'Answer questions')).toEqual(['AI']);
  });

  it("places it nowhere for n8n's building blocks, which n8n files under Development among others", () => {
    const blocks = [
      { type: 'n8n-nodes-base.httpRequest', categories: ['Development', 'Core Nodes', 'Helpers'] },
      { type: 'n8n-nodes-base.code', categories: ['Development', 'Core Nodes', 'Data Transformation'] },
    ];
    expect(categoriesOf(blocks, 'Call an API')).toEqual([]);
  });

  it('places it by a node the rule names, a building block, trigger or tool variant included', () => {
    expect(categoriesOf([{ type: 'n8n-nodes-base.extractFromFile', categories: ['Core Nodes', 'Files'] }], 'x')).toEqual(['Document Ops']);
    expect(categoriesOf([{ type: 'n8n-nodes-base.zendeskTrigger', categories: ['Communication'] }], 'x')).toEqual(['Support']);
    expect(categoriesOf([{ type: 'n8n-nodes-base.githubTool', categories: [] }], 'x')).toEqual(['DevOps']);
  });

  it('places it by the words of its name and description, stemmed, in the fixed order', () => {
    expect(categoriesOf([], 'Chase customers about unpaid invoices')).toEqual(['Support', 'Finance']);
    expect(categoriesOf([], 'Remind me of my todos')).toEqual(['Personal Productivity']);
    expect(categoriesOf([], 'Screen job candidates with an AI agent')).toEqual(['AI', 'HR']);
    expect(categoriesOf([], 'Copy rows between two tools')).toEqual([]);
  });

  it('answers only categories of the fixed list', () => {
    const all = categoriesOf(
      [{ type: 'x.y', categories: ['AI', 'Sales', 'Marketing', 'Finance & Accounting', 'HR', 'Data & Storage', 'Productivity', 'Document Loaders'] }],
      'support incident deploy',
    );
    expect(all).toEqual([...TEMPLATE_CATEGORIES]);
  });
});
