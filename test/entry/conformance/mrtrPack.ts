import {
  acceptedContent,
  fromJsonSchema,
  inputRequired,
  type InputRequests,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { clientCapabilitiesOf } from '../../../src/server/clientCapabilities';

/**
 * The conformance suite's 2026-07-28 fixtures: multi-round-trip tools and prompt (MRTR), the
 * envelope diagnostics, and the schema and header fixtures. Test-only, like ./pack.ts. Every round
 * of an MRTR flow may reach another isolate, so what a round must remember travels in `requestState`,
 * sealed by `codec` (HMAC, bound to the caller; the server rejects a tampered one before the handler).
 */
export function installMrtrPack(server: McpServer, codec: RequestStateCodec<Round>): void {
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  const nameSchema = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
  const askName = inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameSchema });
  const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

  server.registerTool('test_input_required_result_elicitation', { description: 'Asks for a name (elicitation), then greets' }, (ctx) => {
    const answer = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name');
    if (typeof answer?.name !== 'string') return inputRequired({ inputRequests: { user_name: askName } });
    return text(`Hello, ${answer.name}!`);
  });

  server.registerTool('test_input_required_result_sampling', { description: 'Asks the client’s model a question (sampling)' }, (ctx) => {
    const answer = ctx.mcpReq.inputResponses?.capital_question as { content?: { text?: string } } | undefined;
    if (!answer?.content) {
      return inputRequired({
        inputRequests: {
          capital_question: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          }),
        },
      });
    }
    return text(`The model said: ${answer.content.text ?? JSON.stringify(answer.content)}`);
  });

  server.registerTool('test_input_required_result_list_roots', { description: 'Asks for the client’s roots' }, (ctx) => {
    const answer = ctx.mcpReq.inputResponses?.client_roots as { roots?: { uri: string }[] } | undefined;
    if (!Array.isArray(answer?.roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    return text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`);
  });

  // A confirmation whose round is remembered in requestState; a tampered state never reaches the handler.
  const confirmWithState = async (ctx: ServerContext) => {
    const round = ctx.mcpReq.requestState<Round>();
    const answer = acceptedContent<{ ok?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
    if (round?.step === 'confirm' && answer?.ok !== undefined) return text(`state-ok: confirmed ${JSON.stringify(answer.ok)}`);
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Confirm?', requestedSchema: confirmSchema }) },
      requestState: await codec.mint({ step: 'confirm' }, ctx),
    });
  };
  server.registerTool('test_input_required_result_request_state', { description: 'A confirmation that keeps its round in requestState' }, confirmWithState);
  server.registerTool('test_input_required_result_tampered_state', { description: 'As request_state: a tampered requestState is refused' }, confirmWithState);

  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks for a name, a model greeting and the roots at once' }, async (ctx) => {
    const responses = ctx.mcpReq.inputResponses ?? {};
    const name = acceptedContent<{ name?: unknown }>(responses, 'user_name')?.name;
    if (ctx.mcpReq.requestState<Round>()?.step === 'all' && typeof name === 'string' && responses.greeting && responses.client_roots) {
      return text(`Hello, ${name}: all three inputs arrived`);
    }
    return inputRequired({
      inputRequests: {
        user_name: askName,
        greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await codec.mint({ step: 'all' }, ctx),
    });
  });

  server.registerTool('test_input_required_result_multi_round', { description: 'Asks for a name, then a colour, in two rounds' }, async (ctx) => {
    const round = ctx.mcpReq.requestState<Round>();
    const name = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'step1')?.name;
    const color = acceptedContent<{ color?: unknown }>(ctx.mcpReq.inputResponses, 'step2')?.color;
    if (round?.step === 'color' && typeof color === 'string') return text(`${round.name} likes ${color}`);
    if (round?.step === 'name' && typeof name === 'string') {
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({
            message: 'Favourite colour?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          }),
        },
        requestState: await codec.mint({ step: 'color', name }, ctx),
      });
    }
    return inputRequired({ inputRequests: { step1: askName }, requestState: await codec.mint({ step: 'name' }, ctx) });
  });

  server.registerTool('test_input_required_result_capabilities', { description: 'Asks only for what the client declared it can give' }, (ctx) => {
    const capabilities = clientCapabilitiesOf(ctx.mcpReq.envelope);
    const requests: InputRequests = {};
    if (capabilities.elicitation) requests.user_name = askName;
    if (capabilities.sampling)
      requests.question = inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 20 });
    if (capabilities.roots) requests.client_roots = inputRequired.listRoots();
    if (Object.keys(requests).length === 0 || Object.keys(ctx.mcpReq.inputResponses ?? {}).length > 0) return text('Done with what the client offers');
    return inputRequired({ inputRequests: requests });
  });

  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that first asks for context (elicitation)' }, (ctx) => {
    const answer = acceptedContent<{ context?: unknown }>(ctx.mcpReq.inputResponses, 'user_context');
    if (typeof answer?.context !== 'string') {
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        },
      });
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${answer.context}` } }] };
  });

  // Asking a client for sampling it did not declare is refused by the SDK with -32021 (MissingRequiredClientCapability).
  server.registerTool('test_missing_capability', { description: 'Needs the client’s sampling capability' }, (ctx) => {
    if (ctx.mcpReq.inputResponses?.question) return text('The client sampled');
    return inputRequired({
      inputRequests: { question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 20 }) },
    });
  });
  server.registerTool('test_streaming_elicitation', { description: 'Answers at once: no server-to-client request on the stream' }, () =>
    text('No elicitation needed'),
  );
  server.registerTool('test_logging_tool', { description: 'Logs one message (only sent at the requested logLevel), then answers' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran');
    return text('Logged');
  });

  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'Keeps its JSON Schema 2020-12 input schema verbatim', inputSchema: fromJsonSchema(JSON_SCHEMA_2020_12) },
    () => text('Schema accepted'),
  );
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Mirrors its region argument into the Mcp-Param-Region header',
      inputSchema: fromJsonSchema(X_MCP_HEADER_SCHEMA),
    },
    (args) => text(`Region: ${String((args as { region?: unknown }).region)}`),
  );
}

/** What one MRTR round leaves for the next, sealed into requestState. */
export type Round = { step: 'confirm' | 'all' | 'name' } | { step: 'color'; name: string };

/** SEP-2243: a client mirrors `region` into `Mcp-Param-Region`, and the server checks the two agree. */
const X_MCP_HEADER_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' },
    level: { type: 'integer', description: 'not mirrored' },
  },
} as Parameters<typeof fromJsonSchema>[0];

/** The suite's fixture (SEP-1613): every 2020-12 keyword it checks is kept as written. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;
