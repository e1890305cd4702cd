import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET_BYTES } from '../../../src/config';
import { bytesInAnswer } from '../../../src/protocol/answerBytes';
import { withNodes, workflowOutline } from '../../../src/tools/n8n/workflowParts';
import { largeWorkflow } from '../../support/workflows';

describe('a workflow in parts', () => {
  it('gives the nodes asked for by name, the connections that leave them and their pinned items, and says it is not the whole workflow', () => {
    const workflow = { id: 'w1', ...largeWorkflow('Large', 3, 100), pinData: { 'Code 1': [{ json: { a: 1 } }], 'Code 3': [{ json: { b: 2 } }] } };
    const part = withNodes(workflow, ['Code 1', 'Code 2', 'Nope']);
    expect((part.nodes as { name: string }[]).map((n) => n.name)).toEqual(['Code 1', 'Code 2']);
    expect(part.nodes).toEqual(workflow.nodes.slice(1, 3));
    expect(Object.keys(part.connections as object)).toEqual(['Code 1', 'Code 2']);
    expect(part.pinData).toEqual({ 'Code 1': [{ json: { a: 1 } }] });
    expect(part).toMatchObject({ id: 'w1', name: 'Large', settings: { executionOrder: 'v1' }, notFound: ['Nope'] });
    expect(part.partial).toBe(
      "Only 2 of the workflow's 4 nodes, with the connections that leave them: not a workflow to send back whole (update_workflow would delete the others); edit_workflow changes nodes in place.",
    );
  });

  it('outlines a workflow too large for an answer: each node with its size, large fields left out and said, pinned items counted', () => {
    const workflow = {
      id: 'w1',
      ...largeWorkflow('Large'),
      staticData: { cache: 'c'.repeat(ANSWER_BUDGET_BYTES / 4) },
      pinData: { 'Code 1': [{ json: { a: 1 } }] },
    };
    const outline = workflowOutline(workflow, 'The answer is 1 byte too many.', 'get_workflow');
    expect(outline.nodes).toEqual(
      workflow.nodes.map((node) => ({
        name: node.name,
        type: node.type,
        typeVersion: node.typeVersion,
        bytes: bytesInAnswer(node) + (node.name === 'Code 1' ? bytesInAnswer([{ json: { a: 1 } }]) : 0),
      })),
    );
    expect(outline).toMatchObject({ id: 'w1', name: 'Large', connections: workflow.connections, settings: workflow.settings, pinData: { 'Code 1': '1 item' } });
    expect(outline.staticData).toMatch(/^\([\d,]+ bytes: left out\)$/);
    expect(outline.answerTooLarge).toBe(
      `The answer is 1 byte too many. Its nodes are listed with their size: read them with get_workflow and nodes (names), as many at a time as come to less than ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} bytes; edit_workflow changes nodes in place without sending the workflow whole.`,
    );
  });
});
