import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { invokeTool } from '../../src/server/runTool';
import { toolsFor } from '../../src/server/registry';
import type { ToolDefinition } from '../../src/tools/tool';
import { loadCatalog, seedSpecs } from '../support/catalog';
import { n8nSpecs } from '../support/n8nCatalog';
import { directContext, nullPrototypeAt, productionTools, renamedNode, savedSampleWorkflow, withN8n, SAMPLE_WORKFLOW, sampleArguments, stringPositions, withNameAt } from '../support/hostile';
import { pollutedSince, prototypesSnapshot, restorePrototypes } from '../support/specialNames';
import { initializeRequest, postJson } from '../support/mcp';

/**
 * Every tool, run with a name that is special on ordinary objects in every string position of valid
 * arguments (each string, each object key, and a workflow's node renamed everywhere it is used): the
 * call ends with a result (an error result is fine), Object.prototype and the other built-in
 * prototypes are as they were, and the server still serves the next request. The n8n tools reach the
 * contract fake of n8n (test/fakes/n8n); `npm run fuzz` tries more names and shapes.
 */
const NAMES = ['__proto__', 'constructor', 'toString'];

const n8nEnv = withN8n();
const context = () => directContext(n8nEnv);

const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));
// n8n's own node descriptions, so workflows meet the rules they are checked by in a deployment.
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

/** A workflow saved for one test: others change or delete theirs. */
const savedWorkflowId = () => savedSampleWorkflow(n8nEnv);

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
  const tools = productionTools(n8nEnv);
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

describe('what the n8n tools send keeps keys named like prototypes', () => {
  const run = async (name: string, args: string) => {
    const tool = toolsFor(n8nEnv).find((t) => t.name === name)!;
    const result = await invokeTool(tool, tool.input.parse(JSON.parse(args)), context());
    return JSON.parse((result.content[0] as { text: string }).text);
  };
  const saved = async (id: string) => {
    const response = await fetch(`${inject('n8nUrl')}/api/v1/workflows/${id}`, { headers: { 'x-n8n-api-key': inject('n8nKey') } });
    return (await response.json()) as { connections: Record<string, unknown> };
  };

  it('create_workflow saves a node named "__proto__" with the connections it starts', async () => {
    const workflow = renamedNode(SAMPLE_WORKFLOW, 'Build Order', '__proto__');
    const { id } = await run('create_workflow', `{"workflow":${workflow},"force":true}`);
    expect(Object.hasOwn((await saved(id)).connections, '__proto__')).toBe(true);
  });

  it('edit_workflow adds a node with a "__proto__" parameter and connects from a node named "__proto__"', async () => {
    const id = await savedWorkflowId();
    const operations = `[{"type":"addNode","node":{"name":"Added","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"__proto__":{"a":1}}}},{"type":"addConnection","source":"__proto__","target":"Added"}]`;
    expect(await run('edit_workflow', `{"id":"${id}","operations":${operations},"validateOnly":false}`)).toMatchObject({ saved: true });
    const after = (await saved(id)) as { connections: Record<string, unknown>; nodes: { name: string; parameters: object }[] };
    expect(Object.hasOwn(after.connections, '__proto__')).toBe(true);
    expect(Object.hasOwn(after.nodes.find((n) => n.name === 'Added')!.parameters, '__proto__')).toBe(true);
  });
});
