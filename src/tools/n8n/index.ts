import { isScope } from '../../auth/scopes';
import type { ToolDefinition } from '../tool';
import { AUDIT_TOOLS } from './audit';
import { CREDENTIAL_TOOLS } from './credentials';
import { EXECUTION_TOOLS } from './executions';
import { PROJECT_TOOLS } from './projects';
import { TAG_TOOLS } from './tags';
import { USER_TOOLS } from './users';
import { VARIABLE_TOOLS } from './variables';
import { editWorkflow } from './editWorkflow';
import { testWorkflow } from './testWorkflow';
import { tryNodes } from './tryNodes';
import { STORED_TEST_TOOLS } from './storedTests';
import { VERSION_TOOLS } from './versions';
import { WORKFLOW_TOOLS } from './workflows';

/**
 * Each resource's tools need `<resource>:read` when they only read (readOnlyHint) and
 * `<resource>:write` otherwise; whether a change of one was made is checked with `list_<resource>`,
 * unless the tool names another.
 */
const scoped = (resource: string, tools: readonly ToolDefinition[]): ToolDefinition[] =>
  tools.map((tool) => {
    const scope = `${resource}:${tool.annotations.readOnlyHint ? 'read' : 'write'}`;
    if (!isScope(scope)) throw new Error(`${tool.name}: there is no scope ${scope}`);
    return { ...tool, scope, ...(tool.annotations.readOnlyHint ? {} : { checkWith: tool.checkWith ?? `list_${resource}` }) };
  });

/**
 * The 31 n8n management tools of seed 003, edit_workflow, test_workflow, try_nodes, the version
 * history's tools and the stored tests' four, served when the deployment has an n8n to drive. try_nodes needs workflows:write
 * alone: the only execution it reads or deletes is the one of the workflow it created in the same
 * call, which it deletes too.
 */
export const N8N_TOOLS: readonly ToolDefinition[] = [
  ...scoped('workflows', [...WORKFLOW_TOOLS, editWorkflow, testWorkflow, tryNodes, ...VERSION_TOOLS, ...STORED_TEST_TOOLS]),
  ...scoped('executions', EXECUTION_TOOLS),
  ...scoped('credentials', CREDENTIAL_TOOLS),
  ...scoped('tags', TAG_TOOLS),
  ...scoped('users', USER_TOOLS),
  ...scoped('variables', VARIABLE_TOOLS),
  ...scoped('projects', PROJECT_TOOLS),
  ...scoped('audit', AUDIT_TOOLS),
];
