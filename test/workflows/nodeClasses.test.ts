import { describe, expect, it } from 'vitest';
import { errorWorkflowOf, nodeClasses, nodesInPlay, workflowCall, type ClassOverrides } from '../../src/workflows/nodeClasses';
import { connect, node } from '../support/n8nCatalog';

const none: ClassOverrides = new Map();
const classesOf = (n: Record<string, unknown>, overrides = none) => nodeClasses(n, overrides).map((c) => c.class);
const names = (nodes: { name: string }[]) => nodes.map((n) => n.name);

describe('the class a node type puts a node in', () => {
  it('host: commands, shells and the disk of the n8n host, as n8n describes those nodes', () => {
    for (const type of ['executeCommand', 'ssh', 'readWriteFile', 'readBinaryFile', 'readBinaryFiles', 'writeBinaryFile', 'localFileTrigger', 'git']) {
      expect(classesOf(node('N', type, 1)), type).toEqual(['host']);
    }
    // An AI tool variant of a node is that node.
    expect(classesOf(node('N', 'executeCommandTool', 1))).toEqual(['host']);
    expect(nodeClasses(node('Cmd', 'executeCommand', 1), none)[0]!.why).toBe('runs shell commands on the n8n host');
  });

  it('host only where the parameters make it so: Debug Helper uses up memory only in its "Out Of Memory" category', () => {
    expect(classesOf(node('D', 'debugHelper', 1, { category: 'oom' }))).toEqual(['host']);
    expect(classesOf(node('D', 'debugHelper', 1, { category: '={{ $json.c }}' }))).toEqual(['host']);
    expect(classesOf(node('D', 'debugHelper', 1, { category: 'randomData' }))).toEqual([]);
  });

  it('code: the nodes that run the code they are given', () => {
    for (const type of ['code', 'function', 'functionItem', 'aiTransform', '@n8n/n8n-nodes-langchain.code', '@n8n/n8n-nodes-langchain.toolCode']) {
      expect(classesOf(node('N', type, 1)), type).toEqual(['code']);
    }
  });

  it('none for the nodes that move items, whatever n8n package they are of', () => {
    for (const type of ['set', 'if', 'httpRequest', 'webhook', 'respondToWebhook', '@n8n/n8n-nodes-langchain.agent']) {
      expect(classesOf(node('N', type, 1, { url: 'https://example.com' })), type).toEqual([]);
    }
  });

  it("host for a node of a package that is not n8n's own: nothing says what a community node does", () => {
    const classes = nodeClasses(node('Shell', 'n8n-nodes-shell.run', 1), none);
    expect(classes).toEqual([{ class: 'host', why: expect.stringContaining('community or custom node') }]);
  });

  it("the operator's overrides come first: a type or a package into a class or out of all of them", () => {
    const overrides: ClassOverrides = new Map([
      ['n8n-nodes-base.git', 'none'],
      ['n8n-nodes-base.httpRequest', 'host'],
      ['n8n-nodes-trusted.*', 'none'],
    ]);
    expect(classesOf(node('G', 'git', 1), overrides)).toEqual([]);
    expect(classesOf(node('G', 'gitTool', 1), overrides)).toEqual([]);
    expect(classesOf(node('H', 'httpRequest', 4.2), overrides)).toEqual(['host']);
    expect(classesOf(node('T', 'n8n-nodes-trusted.thing', 1), overrides)).toEqual([]);
    expect(classesOf(node('T', 'n8n-nodes-other.thing', 1), overrides)).toEqual(['host']);
  });
});

describe('the class what a node holds puts it in', () => {
  it('credentials: any stored credential it names', () => {
    const slack = node('Slack', 'slack', 2.3, {}, { credentials: { slackApi: { id: '7', name: 'Team' } } });
    expect(nodeClasses(slack, none)).toEqual([{ class: 'credentials', why: 'uses the stored credential slackApi "Team"' }]);
    const http = node('Get', 'httpRequest', 4.2, { authentication: 'predefinedCredentialType', nodeCredentialType: 'slackApi', url: 'https://evil.example' });
    expect(classesOf({ ...http, credentials: { slackApi: { id: '7' } } })).toEqual(['credentials']);
    expect(classesOf({ ...http, credentials: {} })).toEqual([]);
  });

  it("host: an expression that reads the host's environment; credentials: one that reads external secrets", () => {
    expect(classesOf(node('S', 'set', 3.4, { value: '={{ $env.N8N_ENCRYPTION_KEY }}' }))).toEqual(['host']);
    expect(classesOf(node('S', 'set', 3.4, { value: '={{ $secrets.vault.token }}' }))).toEqual(['credentials']);
    // A Code node reading the environment is code that reads the host's too.
    expect(classesOf(node('C', 'code', 2, { jsCode: 'return [{json: {k: $env.KEY}}]' }))).toEqual(['code', 'host']);
    // Text, not code: outside {{ }}, inside a string, or without the "=" that makes n8n evaluate it.
    expect(classesOf(node('S', 'set', 3.4, { a: '=$env is {{ "$env" }}', b: '{{ $env.KEY }}' }))).toEqual([]);
  });

  it('code: an expression that reaches past the item’s data into the runtime', () => {
    for (const value of ['={{ process.mainModule }}', "={{ ''.constructor.constructor('return 1')() }}", '={{ require("fs") }}', '={{ globalThis }}']) {
      expect(classesOf(node('S', 'set', 3.4, { value })), value).toEqual(['code']);
    }
    expect(classesOf(node('S', 'set', 3.4, { value: '={{ $json.global.process }}' }))).toEqual([]);
  });
});

describe('the workflow a node runs', () => {
  const call = (parameters: Record<string, unknown>) => workflowCall(node('Call', 'executeWorkflow', 1.2, parameters));

  it('a saved one by id, one given inline, or one this server cannot know', () => {
    expect(call({ workflowId: { __rl: true, mode: 'list', value: 'abc' } })).toEqual({ id: 'abc' });
    expect(call({ source: 'database', workflowId: 'abc' })).toEqual({ id: 'abc' });
    expect(call({ workflowId: '={{ $json.id }}' })).toEqual({ unknown: expect.stringContaining('chosen when it runs') });
    expect(call({ source: 'parameter', workflowJson: '{"nodes": []}' })).toEqual({ inline: { nodes: [] } });
    expect(call({ source: 'localFile', workflowPath: '/tmp/w.json' })).toEqual({ unknown: expect.any(String), host: true });
    expect(call({ source: 'url', workflowUrl: 'https://x' })).toEqual({ unknown: expect.stringContaining('URL') });
    expect(workflowCall(node('Tool', '@n8n/n8n-nodes-langchain.toolWorkflow', 2.2, { workflowId: { value: 'abc' } }))).toEqual({ id: 'abc' });
    expect(workflowCall(node('Set', 'set', 3.4))).toBeNull();
  });

  it('the error workflow its settings name', () => {
    expect(errorWorkflowOf({ settings: { errorWorkflow: 'e1' } })).toBe('e1');
    expect(errorWorkflowOf({ settings: {} })).toBeNull();
  });
});

describe('the nodes a change brings into play', () => {
  const hook = node('Hook', 'webhook', 2, { path: 'p' });
  const clean = node('Clean', 'set', 3.4, { value: 'fixed' });
  const cmd = node('Cmd', 'executeCommand', 1, { command: '={{ $json.body.cmd }}' });
  const fixedCmd = node('Fixed', 'executeCommand', 1, { command: 'date' });
  const workflow = (nodes: Record<string, unknown>[], ...rows: Parameters<typeof connect>) => ({ nodes, connections: connect(...rows) });
  const saved = workflow([hook, clean, cmd], ['Hook', 'Clean'], ['Clean', 'Cmd']);

  it('every enabled node, for a run (nothing before)', () => {
    expect(names(nodesInPlay([], saved))).toEqual(['Hook', 'Clean', 'Cmd']);
    expect(names(nodesInPlay([], workflow([hook, { ...cmd, disabled: true }])))).toEqual(['Hook']);
  });

  it('none when nothing changed, nor when nodes only moved, got notes or were disabled', () => {
    expect(nodesInPlay([saved], saved)).toEqual([]);
    const moved = { ...saved, nodes: [hook, clean, { ...cmd, position: [500, 500], name: 'Cmd', notes: 'why' }] };
    expect(nodesInPlay([saved], moved)).toEqual([]);
    expect(nodesInPlay([saved], workflow([hook, clean, { ...cmd, disabled: true }], ['Hook', 'Clean'], ['Clean', 'Cmd']))).toEqual([]);
  });

  it('a node whose behaviour changed, and a disabled one enabled', () => {
    const changed = workflow([hook, clean, { ...cmd, parameters: { command: 'id' } }], ['Hook', 'Clean'], ['Clean', 'Cmd']);
    expect(names(nodesInPlay([saved], changed))).toEqual(['Cmd']);
    const enabled = workflow([hook, clean, cmd], ['Hook', 'Clean'], ['Clean', 'Cmd']);
    expect(names(nodesInPlay([{ ...saved, nodes: [hook, clean, { ...cmd, disabled: true }] }], enabled))).toEqual(['Cmd']);
  });

  it('an unchanged node that acts on its input, when a change feeds it: a changed node before it, or a new connection', () => {
    const upstream = workflow([hook, { ...clean, parameters: { value: '={{ $json.body }}' } }, cmd], ['Hook', 'Clean'], ['Clean', 'Cmd']);
    expect(names(nodesInPlay([saved], upstream))).toEqual(['Clean', 'Cmd']);
    const rewired = workflow([hook, clean, cmd], ['Hook', 'Cmd']);
    expect(names(nodesInPlay([saved], rewired))).toEqual(['Cmd']);
  });

  it('not an unchanged node that does what it was told whatever its input (no expression)', () => {
    const before = workflow([hook, clean, fixedCmd], ['Hook', 'Clean'], ['Clean', 'Fixed']);
    const after = workflow([hook, { ...clean, parameters: { value: 'other' } }, fixedCmd], ['Hook', 'Clean'], ['Clean', 'Fixed']);
    expect(names(nodesInPlay([before], after))).toEqual(['Clean']);
  });

  it('an AI tool its root node calls with what the root was given: fed through the root', () => {
    const agent = node('Agent', '@n8n/n8n-nodes-langchain.agent', 2, { text: 'fixed' });
    const tool = node('Fetch', '@n8n/n8n-nodes-langchain.toolHttpRequest', 1.1, { url: '={{ $fromAI("url") }}' });
    const before = workflow([hook, agent, tool], ['Hook', 'Agent'], ['Fetch', 'Agent', 0, 'ai_tool']);
    const after = workflow([hook, { ...agent, parameters: { text: 'other' } }, tool], ['Hook', 'Agent'], ['Fetch', 'Agent', 0, 'ai_tool']);
    expect(names(nodesInPlay([before], after))).toEqual(['Agent', 'Fetch']);
  });

  it('not a node found in any version given before (what a call found, and n8n’s copy now)', () => {
    const without = workflow([hook, clean], ['Hook', 'Clean']);
    expect(nodesInPlay([without, saved], saved)).toEqual([]);
    expect(names(nodesInPlay([without], saved))).toEqual(['Cmd']);
  });
});
