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

/**
 * A workflow past the answer budget: a Manual Trigger, then `codeNodes` Code nodes of about `codeChars`
 * characters of JavaScript each; another `variant` changes every node.
 */
export function largeWorkflow(name: string, codeNodes = 8, codeChars = 110_000, variant = '') {
  const line = `return $input.all();${variant && ` // ${variant}`}\n`;
  const code = Array.from({ length: codeNodes }, (_, i) => ({
    name: `Code ${i + 1}`,
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [200 * (i + 1), 0],
    parameters: { jsCode: `// ${variant} ${i + 1}\n${line.repeat(Math.ceil(codeChars / line.length))}` },
  }));
  const names = ['Start', ...code.map((n) => n.name)];
  return {
    name,
    nodes: [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }, ...code],
    connections: Object.fromEntries(names.slice(0, -1).map((from, i) => [from, { main: [[{ node: names[i + 1]!, type: 'main', index: 0 }]] }])),
    settings: { executionOrder: 'v1' },
  };
}
