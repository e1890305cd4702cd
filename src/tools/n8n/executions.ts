import { z } from 'zod';
import { executionId, n8nId } from '../../n8n/ids';
import { DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';

/** Execution data beyond this many characters is summarised unless the caller asks for all of it. */
export const EXECUTION_DATA_LIMIT = 20_000;

interface Execution {
  id: number | string;
  data?: { resultData?: { runData?: Record<string, NodeRun[]>; error?: unknown; lastNodeExecuted?: string } };
  [key: string]: unknown;
}
interface NodeRun {
  executionTime?: number;
  error?: { message?: string };
  data?: { main?: ({ json?: unknown }[] | null)[] };
}

/** Per node: runs, items out of its last run, its error, and the first item — instead of every item. */
function summariseRunData(runData: Record<string, NodeRun[]>) {
  return Object.fromEntries(
    Object.entries(runData).map(([node, runs]) => {
      const last = runs.at(-1);
      const items = last?.data?.main?.flatMap((output) => output ?? []) ?? [];
      const first = JSON.stringify(items[0]?.json ?? null);
      return [
        node,
        {
          runs: runs.length,
          items: items.length,
          ...(last?.error ? { error: last.error.message ?? 'error' } : {}),
          ...(items.length ? { firstItem: first.length > 500 ? `${first.slice(0, 500)}…` : JSON.parse(first) } : {}),
        },
      ];
    }),
  );
}

/** Large execution data trimmed to a per-node summary, with a note saying how to get all of it. */
export function trimExecution(execution: Execution, fullData: boolean): Record<string, unknown> {
  const runData = execution.data?.resultData?.runData;
  if (fullData || !runData || JSON.stringify(execution.data).length <= EXECUTION_DATA_LIMIT) return execution;
  return {
    ...execution,
    data: { resultData: { ...execution.data!.resultData, runData: summariseRunData(runData) } },
    dataTrimmed: `Execution data over ${EXECUTION_DATA_LIMIT} characters is summarised per node; call with fullData: true for all of it.`,
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
      return page('executions', await n8n.get<Page<Execution>>('/executions', { query }), (e) => trimExecution(e, fullData ?? false));
    },
  }),
  n8nTool({
    name: 'get_execution',
    title: 'Get an execution',
    description: 'Get one execution: status, timing, and with includeData what each node produced (large data summarised).',
    input: z.object({ id: executionId, includeData, fullData }),
    annotations: READS,
    async run({ id, includeData, fullData }, n8n) {
      return trimExecution(await n8n.get<Execution>(`/executions/${id}`, { query: { includeData } }), fullData ?? false);
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
