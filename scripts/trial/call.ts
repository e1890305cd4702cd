/**
 * The agent's one way to the server: a single MCP request through the SDK's 2.x client (Streamable
 * HTTP) to the server in the trial's server file, printing what the agent would see, and a line per
 * request in the trial's call log ({time, agent, task, tool, args, answerBytes, isError}).
 *
 *   npx tsx scripts/trial/call.ts <tool> '<json arguments>'   # the answer's text; exit 1 when isError
 *   npx tsx scripts/trial/call.ts --list                      # the server's instructions and tools (name, description, input schema)
 *   npx tsx scripts/trial/call.ts --resources                 # the resources and templates
 *   npx tsx scripts/trial/call.ts --read <uri>                # one resource's text
 *
 * TRIAL_AGENT and TRIAL_TASK label the log lines (check.ts counts calls per agent and task).
 */
import { appendFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readState, serverFile, type ServerState } from './state.ts';

/** Queued n8n tools may take up to their own deadline (120 s by default) and the queue's pick-up. */
const CALL_TIMEOUT_MS = 150_000;

const [command, argument] = process.argv.slice(2);
if (!command) fail("usage: call.ts <tool> '<json arguments>' | --list | --resources | --read <uri>");

// Refused before anything is sent: a call the server never saw is not logged.
if (!command.startsWith('--')) toolArguments(argument);

const server = readState<ServerState>(serverFile());
const client = new Client({ name: 'trial-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }));

try {
  if (command === '--list') {
    const { tools } = await client.listTools();
    // The server's instructions too: what an MCP client shows the model beside the tools.
    print(
      JSON.stringify(
        { instructions: client.getInstructions(), tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) },
        null,
        2,
      ),
      { tool: '--list' },
    );
  } else if (command === '--resources') {
    const [{ resources }, { resourceTemplates }] = await Promise.all([client.listResources(), client.listResourceTemplates()]);
    print(JSON.stringify({ resources, resourceTemplates }, null, 2), { tool: '--resources' });
  } else if (command === '--read') {
    if (!argument) throw new Error('--read needs a resource URI');
    const { contents } = await client.readResource({ uri: argument });
    print(contents.map((content) => ('text' in content ? content.text : `[${content.mimeType ?? 'binary'} content]`)).join('\n'), {
      tool: '--read',
      args: argument,
    });
  } else {
    const args = toolArguments(argument);
    let text: string;
    let isError: boolean;
    try {
      const result = await client.callTool({ name: command, arguments: args }, { timeout: CALL_TIMEOUT_MS });
      text = (result.content as { type: string; text?: string }[]).map((part) => (part.type === 'text' ? part.text : `[${part.type} content]`)).join('\n');
      isError = result.isError === true;
    } catch (error) {
      // A protocol error (unknown tool, arguments the schema refuses): the agent sees its message.
      text = (error as Error).message;
      isError = true;
    }
    print(text, { tool: command, args, isError });
    if (isError) process.exitCode = 1;
  }
} finally {
  await client.close();
}

/** The tool arguments given on the command line: one JSON object, or none. */
function toolArguments(text: string | undefined): Record<string, unknown> {
  let value: unknown = {};
  try {
    if (text !== undefined) value = JSON.parse(text);
  } catch (error) {
    fail(`the arguments are not JSON (${(error as Error).message}): pass them as one quoted JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('the arguments must be one JSON object, e.g. \'{"query": "webhook"}\'');
  return value as Record<string, unknown>;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** Prints the answer as the agent sees it and logs the request. */
function print(text: string, entry: { tool: string; args?: unknown; isError?: boolean }): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const line = {
    time: new Date().toISOString(),
    agent: process.env.TRIAL_AGENT ?? '',
    task: process.env.TRIAL_TASK ?? '',
    tool: entry.tool,
    args: entry.args ?? {},
    answerBytes: Buffer.byteLength(text),
    isError: entry.isError ?? false,
  };
  appendFileSync(server.callLog, JSON.stringify(line) + '\n');
}
