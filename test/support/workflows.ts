/**
 * A small workflow with two faults the validation tools find: IF's third output (v1 has two) leads
 * back to the manual trigger, which takes no input.
 */
export const FAULTY_WORKFLOW = {
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {}, position: [0, 0] },
    { name: 'Check', type: 'n8n-nodes-base.if', typeVersion: 1, parameters: {}, position: [200, 0] },
  ],
  connections: { Start: { main: [[{ node: 'Check', type: 'main', index: 0 }]] }, Check: { main: [[], [], [{ node: 'Start', type: 'main', index: 0 }]] } },
};

/** A Webhook trigger (POST at `path`, n8n's default answer "Workflow was started") with a webhookId of its own. */
export const webhookTrigger = (path: string, name = 'Hook', parameters: Record<string, unknown> = {}) => ({
  name,
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  webhookId: crypto.randomUUID(),
  position: [0, 0],
  parameters: { path, httpMethod: 'POST', ...parameters },
});
