import { z } from 'zod';
import { autofix, autofixAnswer } from '../../workflows/autofix';
import { workflowOverLimit } from '../../workflows/limits';
import { defineTool } from '../tool';
import { defaultConnectionFor } from '../../workspaces/connectionFor';
import { catalogViewFor, unknownReleaseNote } from './catalogView';
import { WorkflowJson } from './schemas';
import { SIZE_LIMITS, withinLimits } from './withinLimits';

export const autofixWorkflow = defineTool({
  name: 'autofix_workflow',
  title: 'Fix a workflow',
  description:
    'The fixes a workflow needs that can be made without guessing, each with what it changes and its confidence, and ' +
    'the workflow with the sure (high-confidence) ones made: node-type typos with one clear match, typeVersion to the ' +
    'nearest existing one (one the configured n8n runs, when its release is known), the "=" an expression lacks and a "{{" left open, references and choices off by case or a ' +
    'letter, webhookId and path of webhook triggers, connections written with node ids, stale, duplicate and self ' +
    'connections, AI sub-nodes wired as main, output/input indexes a one-port node lacks, "singleValue" on conditions ' +
    'that take no right value ("is true", "exists"). Nothing uncertain is ' +
    'applied: those are listed for you to decide. Answers the validation before and after (a fixed workflow too large for ' +
    'one answer is left out, the fixes stay). This previews; to fix a ' +
    `saved workflow in n8n, call edit_workflow with its id, "operations": [] and "autofix": true. ${SIZE_LIMITS}`,
  input: z.object({ workflow: WorkflowJson }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  view: true,
  tooLarge: {
    readTheRest: 'Send a smaller workflow.',
    // The fixes, each saying what it changes, without the fixed workflow.
    smaller: (value, said) => {
      const { workflow: _workflow, ...fixes } = value as Record<string, unknown>;
      return {
        ...fixes,
        workflowLeftOut: `${said} The fixed workflow is left out: make the fixes yourself (each says what it changes), or save the workflow and call edit_workflow with "operations": [] and "autofix": true.`,
      };
    },
  },
  execution: 'direct',
  scope: 'nodes:read',
  async run({ workflow }, { env, caller }) {
    withinLimits(workflowOverLimit(workflow));
    const connection = await defaultConnectionFor(env, caller);
    const result = autofix(workflow, await catalogViewFor(env, connection, workflow.nodes));
    return { ...autofixAnswer(result), ...(await unknownReleaseNote(connection)) };
  },
});
