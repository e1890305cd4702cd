import { z } from 'zod';
import { executionId, n8nId } from '../../n8n/ids';
import { failureOf, nodeSummaries, runPath, withoutHostDetails, type Execution } from './executionReport';
import { DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';

/** Execution data beyond this many characters is summarised unless the caller asks for all of it. */
export const EXECUTION_DATA_LIMIT = 20_000;

/** Large execution data trimmed to a per-node summary (in the order the nodes ran), with a note saying how to get all of it. */
export function trimExecution(execution: Execution, fullData: boolean): Record<string, unknown> {
  const resultData = execution.data?.resultData;
  if (fullData || !resultData?.runData || JSON.stringify(execution.data).length <= EXECUTION_DATA_LIMIT) return execution;
  const { runData, ...rest } = resultData;
  const { workflowData, ...withoutWorkflow } = execution;
  return {
    ...withoutWorkflow,
    data: { resultData: { ...rest, nodes: nodeSummaries(execution) } },
    dataTrimmed: `Execution data over ${EXECUTION_DATA_LIMIT} characters is summarised per node; call with fullData: true for all of it.`,
  };
}

/**
 * Why a run failed, as get_execution's error view: the node that failed, its message (no stack, no file
 * paths of the instance), the items it was given, the path the run took and per node its counts. An
 * execution that did not fail says so, with its status.
 */
function errorView(execution: Execution): Record<string, unknown> {
  const failed = failureOf(execution);
  return {
    id: String(execution.id),
    ...(execution.workflowId ? { workflowId: execution.workflowId } : {}),
    status: execution.status ?? (execution.finished ? 'success' : 'error'),
    startedAt: execution.startedAt,
    stoppedAt: execution.stoppedAt,
    ...(failed ? { failed } : { note: `This execution has no failed node (status ${execution.status ?? 'unknown'}).` }),
    path: runPath(execution),
    nodes: nodeSummaries(execution),
  };
}

const includeData = z.boolean().optional().describe("Include the execution's node data (default false)");
const fullData = z.boolean().optional().describe('With includeData: return large data whole instead of summarised per node');

export const EXECUTION_TOOLS = [
  n8nTool({
    name: 'list_executions',
    title: 'List executions',
    description: 'List workflow executions, newest first, filtered by workflow, status or project, a page at a time.',
    input: z.object({
      workflowId: n8nId('workflow').optional().describe('Executions of this workflow'),
      status: z.enum(['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting']).optional(),
      projectId: n8nId('project').optional().describe('Executions of this project'),
      includeData,
      fullData,
      ...paging,
    }),
    annotations: READS,
    async run({ workflowId, status, projectId, includeData, fullData, limit, cursor }, n8n) {
      const query = { workflowId, status, projectId, includeData, limit, cursor };
      return page('executions', withoutHostDetails(await n8n.get<Page<Execution>>('/executions', { query })), (e) => trimExecution(e, fullData ?? false));
    },
  }),
  n8nTool({
    name: 'get_execution',
    title: 'Get an execution',
    description:
      'Get one execution: status, timing, and with includeData what each node produced (large data summarised). ' +
      'view "error" answers why a run failed: the failing node and its message, the items that reached it, the path ' +
      'the run took and the items per node.',
    input: z.object({
      id: executionId,
      includeData,
      fullData,
      view: z.enum(['error']).optional().describe('"error": the failing node, its error, the items that reached it and the path the run took'),
    }),
    annotations: READS,
    async run({ id, includeData, fullData, view }, n8n) {
      const read = async (withData?: boolean) => withoutHostDetails(await n8n.get<Execution>(`/executions/${id}`, { query: { includeData: withData } }));
      if (view === 'error') return errorView(await read(true));
      return trimExecution(await read(includeData), fullData ?? false);
    },
  }),
  n8nTool({
    name: 'delete_execution',
    title: 'Delete an execution',
    description: 'Delete an execution and its data.',
    input: z.object({ id: executionId }),
    annotations: DELETES,
    async run({ id }, n8n) {
      await n8n.delete(`/executions/${id}`);
      return { deleted: true, id };
    },
  }),
];
