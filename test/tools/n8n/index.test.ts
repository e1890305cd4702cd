import { describe, expect, it } from 'vitest';
import { N8N_TOOLS } from '../../../src/tools/n8n';

describe('N8N_TOOLS', () => {
  it('holds the 31 management tools of seed 003, edit_workflow, test_workflow, try_nodes, the five of the version history and the four of the stored tests, each once', () => {
    const names = N8N_TOOLS.map((t) => t.name);
    expect(names).toHaveLength(43);
    expect(new Set(names).size).toBe(43);
    expect(names).toEqual(
      expect.arrayContaining([
        'edit_workflow',
        'test_workflow',
        'try_nodes',
        'get_audit_events',
        'list_credentials',
        'restore_workflow_version',
        'prune_workflow_versions',
        'run_workflow_tests',
      ]),
    );
  });

  it('needs <resource>:read for a tool that only reads and <resource>:write for one that changes something', () => {
    for (const tool of N8N_TOOLS) {
      expect(tool.scope, tool.name).toMatch(tool.annotations.readOnlyHint ? /^[a-z]+:read$/ : /^[a-z]+:write$/);
    }
    const scopeOf = (name: string) => N8N_TOOLS.find((t) => t.name === name)!.scope;
    expect([scopeOf('list_tags'), scopeOf('create_tag'), scopeOf('edit_workflow'), scopeOf('get_audit_events')]).toEqual([
      'tags:read',
      'tags:write',
      'workflows:write',
      'audit:read',
    ]);
  });

  it('names, for each tool that changes something, the tool that shows whether it did', () => {
    for (const tool of N8N_TOOLS) {
      if (tool.annotations.readOnlyHint) expect(tool.checkWith, tool.name).toBeUndefined();
      else
        expect(
          N8N_TOOLS.map((t) => t.name),
          tool.name,
        ).toContain(tool.checkWith);
    }
    expect(N8N_TOOLS.find((t) => t.name === 'delete_tag')!.checkWith).toBe('list_tags');
    expect(N8N_TOOLS.find((t) => t.name === 'test_workflow')!.checkWith).toBe('list_executions');
  });
});
