/** A webhook that answers `{ greeting: "hello <name>" }` for a body `{ name }`: Hook → Greeting (Edit Fields) → Respond, at `path`. */
export const greeterWorkflow = (path: string) => ({
  name: 'Greeter (e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: 'f0e1d2c3-0000-4000-8000-0000000e2e01',
      position: [0, 0],
      parameters: { path, httpMethod: 'POST', responseMode: 'responseNode', options: {} },
    },
    {
      name: 'Greeting',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [220, 0],
      parameters: { assignments: { assignments: [{ id: 'g1', name: 'greeting', value: '=hello {{ $json.body.name }}', type: 'string' }] }, options: {} },
    },
    {
      name: 'Respond',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [440, 0],
      parameters: { respondWith: 'firstIncomingItem', options: {} },
    },
  ],
  connections: {
    Hook: { main: [[{ node: 'Greeting', type: 'main', index: 0 }]] },
    Greeting: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
  },
});
