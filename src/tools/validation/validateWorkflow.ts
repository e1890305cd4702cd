import { z } from 'zod';
import { EXPRESSION_GUIDE_POINTER } from '../../catalog/expressionGuide';
import { MAX_FINDINGS } from '../../workflows/findings';
import { workflowOverLimit } from '../../workflows/limits';
import { validateWorkflow as validate } from '../../workflows/validateWorkflow';
import { classWarnings, nodePolicyOf } from '../../auth/nodePolicy';
import { callerWorkspace, defaultConnectionFor } from '../../workspaces/connectionFor';
import { defineTool } from '../tool';
import { catalogViewFor, unknownReleaseNote } from './catalogView';
import { FindingsOutput, WorkflowJson } from './schemas';
import { SIZE_LIMITS, withinLimits } from './withinLimits';

/** Called workflows one validation takes: each is read whole, as the workflow is. */
const MAX_CALLED_WORKFLOWS = 10;

export const validateWorkflow = defineTool({
  name: 'validate_workflow',
  title: 'Validate a workflow',
  description:
    'Check a whole n8n workflow before saving or running it. The loop that gets workflows right: search_nodes → ' +
    'get_node_details (with the version you will use) → write the workflow → validate_workflow → fix every error → ' +
    'validate again. Each node is checked against the description of its own typeVersion (old versions ' +
    'included, LangChain nodes included): type, version, required parameters, values, choices, expressions. ' +
    'Across the workflow: duplicate names or ids, connections from or to missing nodes, connection kinds the ' +
    'nodes lack (main vs ai_*), output/input indexes beyond the ports the node has for its settings (IF true/false, ' +
    "Switch rules, error outputs), AI nodes without the sub-nodes they need, references like $('Name') to " +
    `nodes that do not exist, fields read from nodes whose output cannot have them ($json.email after a Webhook: ` +
    `$json.body.email), a Webhook waiting for a Respond to Webhook node no path reaches, Execute Workflow inputs the ` +
    `called workflow does not define (pass it in called_workflows), triggers and unreachable nodes; and the nodes ` +
    `your credential may not put into n8n (the n8n host, code, stored credentials need scopes of their own). ` +
    `How to write expressions: ${EXPRESSION_GUIDE_POINTER}. Answers {valid, errors, warnings}: the first ${MAX_FINDINGS} ` +
    `of each, "omitted" counting the rest. ${SIZE_LIMITS}`,
  input: z.object({
    workflow: WorkflowJson,
    called_workflows: z
      .array(WorkflowJson.and(z.object({ id: z.string().min(1).max(100) }).loose()))
      .max(MAX_CALLED_WORKFLOWS)
      .optional()
      .describe("Workflows its Execute Workflow nodes call, each with its id: their inputs are checked against the trigger's"),
  }),
  output: FindingsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  view: true,
  execution: 'direct',
  scope: 'nodes:read',
  async run({ workflow, called_workflows = [] }, { env, caller }) {
    withinLimits(workflowOverLimit(workflow));
    for (const [i, called] of called_workflows.entries()) withinLimits(workflowOverLimit(called, `called_workflows[${i}]`));
    const callees = new Map(called_workflows.map((w) => [w.id, w]));
    const connection = await defaultConnectionFor(env, caller);
    const result = validate(workflow, await catalogViewFor(env, connection, workflow.nodes), undefined, callees);
    // Nodes this credential may not put into n8n: said now, not first at create_workflow.
    const refused = classWarnings(workflow, caller, nodePolicyOf(env, await callerWorkspace(env, caller)));
    return { ...result, warnings: [...result.warnings, ...refused], ...(await unknownReleaseNote(connection)) };
  },
});
