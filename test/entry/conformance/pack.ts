import { completable, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PNG_BASE64 } from './tools';

/**
 * The resources, prompts, completions, subscriptions and client-calling tools (sampling, elicitation)
 * the MCP conformance suite exercises. Test-only, like ./tools.ts; these use SDK features no real tool
 * of this server needs, so they are registered on the SDK server directly.
 */
export function installConformancePack(server: McpServer, era: 'sessions' | 'stateless'): void {
  server.registerResource('static-text', 'test://static-text', { description: 'A static text resource', mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { description: 'A static PNG', mimeType: 'image/png' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG_BASE64 }],
  }));
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched.' }] }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for an id', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
    }),
  );

  // 2025-era subscriptions are tracked per session object; no resource here ever changes, so none is
  // notified. The 2026-07-28 revision has no resources/subscribe.
  if (era === 'sessions') {
    const subscribed = new Set<string>();
    server.server.registerCapabilities({ resources: { subscribe: true } });
    server.server.setRequestHandler('resources/subscribe', ({ params }) => (subscribed.add(params.uri), {}));
    server.server.setRequestHandler('resources/unsubscribe', ({ params }) => (subscribed.delete(params.uri), {}));
  }

  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      argsSchema: {
        arg1: completable(z.string().describe('First test argument'), (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value))),
        arg2: z.string().describe('Second test argument'),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt embedding a resource', argsSchema: { resourceUri: z.string().describe('URI to embed') } },
    ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));

  server.registerTool(
    'test_reconnection',
    { description: 'Closes its own SSE stream mid-call, then answers: the client resumes with Last-Event-ID (SEP-1699)' },
    async (ctx) => {
      // Offered by the SDK only to clients that get priming events (2025-11-25 and later).
      ctx.http?.closeSSE?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { content: [{ type: 'text', text: 'Reconnection test completed successfully' }] };
    },
  );
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client’s LLM (sampling/createMessage)', inputSchema: { prompt: z.string() } },
    async ({ prompt }, ctx) => {
      const result = await ctx.mcpReq.send({
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
      });
      const [first] = [result.content].flat();
      const text = first?.type === 'text' ? first.text : JSON.stringify(result.content);
      return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user (elicitation/create)', inputSchema: { message: z.string() } },
    async ({ message }, ctx) => {
      const result = await ctx.mcpReq.send({
        method: 'elicitation/create',
        params: {
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        },
      });
      return { content: [{ type: 'text', text: `User response: ${JSON.stringify(result)}` }] };
    },
  );
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Elicitation with a default for every primitive type' }, async (ctx) => {
    const result = await ctx.mcpReq.send({
      method: 'elicitation/create',
      params: {
        message: 'Please review the defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      },
    });
    return { content: [{ type: 'text', text: `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}` }] };
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Elicitation with the five enum schema variants' }, async (ctx) => {
    const result = await ctx.mcpReq.send({
      method: 'elicitation/create',
      params: {
        message: 'Please choose',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      },
    });
    return { content: [{ type: 'text', text: `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}` }] };
  });
}
