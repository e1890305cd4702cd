import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Env } from '../../src/env';
import { invokeTool } from '../../src/execution/runTool';
import { toolsFor } from '../../src/tools/registry';
import type { ToolContext, ToolDefinition } from '../../src/tools/tool';
import { loadCatalog, seedSpecs } from '../support/catalog';
import { n8nSpecs } from '../support/n8nCatalog';
import { nullPrototypeAt, pollutedSince, prototypesSnapshot, restorePrototypes, renamedNode, SAMPLE_WORKFLOW, sampleArguments, stringPositions, withNameAt } from '../support/hostile';
import { initializeRequest, postJson } from '../support/mcp';

/**
 * Every tool, run with a name that is special on ordinary objects in every string position of valid
 * arguments (each string, each object key, and a workflow's node renamed everywhere it is used): the
 * call ends with a result (an error result is fine), Object.prototype and the other built-in
 * prototypes are as they were, and the server still serves the next request. The n8n tools reach the
 * contract fake of n8n (test/fakes/n8n); `npm run fuzz` tries more names and shapes.
 */
const NAMES = ['__proto__', 'constructor', 'toString'];

const n8nEnv: Env = { ...env, N8N_API_URL: inject('n8nUrl'), N8N_API_KEY: inject('n8nKey'), CONFORMANCE_PACK: 'off' };
/** The context a direct call gets, for a caller with every scope. */
const context = (): ToolContext => ({
  env: n8nEnv,
  caller: { id: 'key_hostile', subject: 'key_hostile', scopes: ['*'] },
  signal: AbortSignal.timeout(20_000),
  deadline: Date.now() + 20_000,
  progress: async () => {},
  log: async () => {},
  beginSideEffect: async () => {},
});

const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));
// n8n's own node descriptions, so workflows meet the rules they are checked by in a deployment.
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

/**
 * A workflow saved in the fake n8n for one test (others change or delete theirs), so the tools that
 * take an id get past "not found": SAMPLE_WORKFLOW with a node named "__proto__" that starts no connection.
 */
async function savedWorkflowId(): Promise<string> {
  const create = toolsFor(n8nEnv).find((t) => t.name === 'create_workflow')!;
  const created = await invokeTool(create, create.input.parse({ workflow: JSON.parse(renamedNode(SAMPLE_WORKFLOW, 'Respond Created', '__proto__')), force: true }), context());
  return JSON.parse((created.content[0] as { text: string }).text).id;
}

function variants(tool: ToolDefinition, ids: Record<string, string>): string[] {
  const args = sampleArguments(tool, ids);
  const out = [JSON.stringify(args), ...stringPositions(args).flatMap((position) => NAMES.map((name) => withNameAt(args, position, name)))];
  if ('workflow' in args) {
    for (const node of SAMPLE_WORKFLOW.nodes) {
      for (const name of NAMES) {
        for (const sourcesAs of ['name', 'upper case', 'id'] as const) {
          out.push(JSON.stringify(args).replace(JSON.stringify(args.workflow), renamedNode(SAMPLE_WORKFLOW, node.name, name, sourcesAs)));
        }
      }
    }
  }
  return out;
}

describe('every tool, with prototype names in every string position', () => {
  const tools = toolsFor(n8nEnv);
  it('covers the tools a deployment with n8n serves', () => {
    expect(tools.length).toBeGreaterThanOrEqual(40);
  });

  for (const tool of tools) {
    it(`${tool.name}: answers, leaves the built-in prototypes alone, and the next request is served`, async () => {
      const before = prototypesSnapshot();
      let ran = 0;
      for (const text of variants(tool, { id: await savedWorkflowId() })) {
        const parsed = tool.input.safeParse(JSON.parse(text));
        // What the schema refuses never reaches the tool (the SDK answers -32602).
        if (!parsed.success) continue;
        const result = await invokeTool(tool, parsed.data, context());
        expect(result.content, text.slice(0, 300)).toBeInstanceOf(Array);
        expect(nullPrototypeAt(result), text.slice(0, 300)).toBeUndefined();
        expect(pollutedSince(before), text.slice(0, 300)).toEqual([]);
        ran++;
      }
      expect(ran).toBeGreaterThan(0);
      const next = await postJson('/mcp', initializeRequest());
      expect(next.status).toBe(200);
    });
  }
});
