/**
 * Sub-workflows: a workflow that starts only with "When Executed by Another Workflow" (Execute
 * Workflow Trigger) is called by other workflows' Execute Workflow nodes, not activated: n8n
 * refuses to activate a workflow with no trigger, poller or webhook, and that trigger is none of
 * them. And a call's inputs against the called workflow's trigger. Pure: the n8n tools read the
 * workflows from n8n; the rules compare.
 */
import { quote, type Findings } from './findings';
import type { WorkflowNode } from './validateNode';
import { isPlainObject, type Values } from './values';

const EXECUTE_WORKFLOW_TRIGGER = 'n8n-nodes-base.executeWorkflowTrigger';

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

const EXECUTE_WORKFLOW = 'n8n-nodes-base.executeWorkflow';

/**
 * The inputs a workflow's Execute Workflow Trigger defines (v1.1+: "workflowInputs" fields, or the
 * keys of its JSON example), or null when it takes any (passthrough, v1, no such trigger, unreadable).
 */
export function calleeInputs(workflow: unknown): string[] | null {
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) return null;
  const trigger = workflow.nodes.find((n) => isPlainObject(n) && n.type === EXECUTE_WORKFLOW_TRIGGER && n.disabled !== true);
  if (!isPlainObject(trigger) || typeof trigger.typeVersion !== 'number' || trigger.typeVersion < 1.1) return null;
  const parameters = isPlainObject(trigger.parameters) ? trigger.parameters : {};
  const source = parameters.inputSource ?? 'workflowInputs';
  if (source === 'workflowInputs') {
    const values = isPlainObject(parameters.workflowInputs) ? parameters.workflowInputs.values : undefined;
    if (!Array.isArray(values)) return [];
    const names = values.map((v) => (isPlainObject(v) ? v.name : undefined));
    return names.every((n): n is string => typeof n === 'string' && !n.startsWith('=')) ? names : null;
  }
  if (source === 'jsonExample' && typeof parameters.jsonExample === 'string') {
    try {
      const example: unknown = JSON.parse(parameters.jsonExample);
      return isPlainObject(example) ? Object.keys(example) : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** The id an Execute Workflow node calls (source "database"): a plain id or a resource locator's value. */
function calledWorkflowId(parameters: unknown): string | null {
  if (!isPlainObject(parameters) || (parameters.source ?? 'database') !== 'database') return null;
  const id = isPlainObject(parameters.workflowId) ? parameters.workflowId.value : parameters.workflowId;
  return typeof id === 'string' && id !== '' && !id.startsWith('=') ? id : null;
}

/** The Execute Workflow nodes of a workflow that call another by id, with that id (what a tool reads from n8n). */
export function calledWorkflowIds(workflow: unknown): string[] {
  if (!isPlainObject(workflow) || !Array.isArray(workflow.nodes)) return [];
  const ids = workflow.nodes
    .filter((n) => isPlainObject(n) && n.type === EXECUTE_WORKFLOW && n.disabled !== true)
    .map((n) => calledWorkflowId((n as Values).parameters));
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/**
 * Execute Workflow's inputs (v1.2+, "workflowInputs" mapped "defineBelow") against the called
 * workflow's trigger, when the caller has it (`callees`, by id). n8n's trigger keeps only the fields
 * it defines: a value mapped to any other never arrives (an error); a defined input left unmapped
 * arrives as null unless the input item carries a field of that name (a warning).
 */
export function checkSubWorkflowCalls(nodes: Iterable<WorkflowNode>, callees: ReadonlyMap<string, unknown>, out: Findings): void {
  for (const node of nodes) {
    if (node.type !== EXECUTE_WORKFLOW || node.disabled || node.typeVersion < 1.2) continue;
    const id = calledWorkflowId(node.parameters);
    const callee = id === null ? undefined : callees.get(id);
    const inputs = callee === undefined ? null : calleeInputs(callee);
    const mapping = node.parameters.workflowInputs;
    if (inputs === null || !isPlainObject(mapping) || (mapping.mappingMode ?? 'defineBelow') !== 'defineBelow') continue;
    const mapped = isPlainObject(mapping.value) ? Object.keys(mapping.value) : [];
    const expected = new Set(inputs);
    const listed = inputs.length ? inputs.map(quote).join(', ') : 'none';
    for (const name of mapped.filter((m) => !expected.has(m))) {
      out.error(
        node.name,
        'subworkflow_input_unknown',
        `${quote(node.name)} sends ${quote(name)}, but the workflow it calls (${quote(id!)}) defines no such input: its trigger drops it. Its inputs: ${listed}.`,
        `parameters.workflowInputs.value.${name}`,
      );
    }
    const missing = inputs.filter((i) => !mapped.includes(i));
    if (missing.length > 0) {
      out.warning(
        node.name,
        'subworkflow_input_unmapped',
        `${quote(node.name)} maps no value to ${missing.map(quote).join(', ')}, which the workflow it calls (${quote(id!)}) takes: each arrives as null unless the input item has a field of that name.`,
        'parameters.workflowInputs.value',
      );
    }
  }
}
