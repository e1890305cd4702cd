/**
 * Sub-workflows: a workflow that starts only with "When Executed by Another Workflow" (Execute
 * Workflow Trigger) is called by other workflows' Execute Workflow nodes, not activated: n8n
 * refuses to activate a workflow with no trigger, poller or webhook, and that trigger is none of
 * them. Pure: the n8n tools read the workflow and say so in their answers.
 */
import { isPlainObject } from './values';

export const EXECUTE_WORKFLOW_TRIGGER = 'n8n-nodes-base.executeWorkflowTrigger';

/** Node types that start runs on their own: triggers, pollers, webhooks (what activation needs). */
const STARTS_ON_ITS_OWN = /trigger$|\.webhook$|\.formTrigger$|\.chatTrigger$/i;

/** Whether the workflow's only enabled starting nodes are Execute Workflow Triggers (at least one). */
export function calledOnly(workflow: unknown): boolean {
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) return false;
  const starters = workflow.nodes
    .filter(isPlainObject)
    .filter((n) => n.disabled !== true && typeof n.type === 'string' && (STARTS_ON_ITS_OWN.test(n.type) || n.type === EXECUTE_WORKFLOW_TRIGGER))
    .map((n) => n.type);
  return starters.length > 0 && starters.every((t) => t === EXECUTE_WORKFLOW_TRIGGER);
}

/** What create_workflow and activate_workflow say of such a workflow. */
export const CALLED_NOT_ACTIVATED =
  'This workflow starts only with "When Executed by Another Workflow" (Execute Workflow Trigger): it is called, not activated. ' +
  'Other workflows run it with an Execute Workflow node (source "database", workflowId this workflow\'s id); n8n refuses to ' +
  'activate a workflow that has no trigger, poller or webhook of its own, and it does not need to be active to be called.';
