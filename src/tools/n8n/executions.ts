import { z } from 'zod';
import { ANSWER_BUDGET_BYTES } from '../../config';
import { N8nAnswerTooLarge, type N8nClient } from '../../n8n/client';
import { executionId, n8nId } from '../../n8n/ids';
import { bytesInAnswer } from '../../protocol/answerBytes';
import { CURSOR_PATTERN, executionPage } from './executionPages';
import { failureOf, nodeSummaries, runPath, withoutHostDetails, type Execution } from './executionReport';
import { DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';

/** Execution data beyond this many characters is summarised unless the caller asks for all of it. */
export const EXECUTION_DATA_LIMIT = 20_000;

/** An execution's data summarised per node (in the order the nodes ran), with a note saying how to get all of it. */
function summarised(execution: Execution, dataTrimmed: string): Record<string, unknown> {
  const { runData: _runData, ...rest } = execution.data?.resultData ?? {};
  const { workflowData: _workflowData, ...withoutWorkflow } = execution;
  return { ...withoutWorkflow, data: { resultData: { ...rest, nodes: nodeSummaries(execution) } }, dataTrimmed };
}

/** Large execution data trimmed to a per-node summary, unless the caller asks for all of it. */
export function trimExecution(execution: Execution, fullData: boolean): Record<string, unknown> {
  const resultData = execution.data?.resultData;
  if (fullData || !resultData?.runData || JSON.stringify(execution.data).length <= EXECUTION_DATA_LIMIT) return execution;
  return summarised(execution, `Execution data over ${EXECUTION_DATA_LIMIT} characters is summarised per node; call with fullData: true for all of it.`);
}

/**
 * Executions a list page holds with their data. Each one's data is read from n8n on its own (one
 * execution in the Worker's memory at a time, where n8n's list with data answered 17.8 MB for ten),
 * so a page is at most eleven requests.
 */
const EXECUTIONS_WITH_DATA = 10;

/** Bytes of an answer kept for what goes around its executions or its page (the cursor, notes). */
const ANSWER_MARGIN = 2_000;

const readAgain = (id: string | number) => `get_execution with id ${id}, includeData and fullData reads it a page at a time.`;

/**
 * list_executions with includeData: the listed executions with their data, each whole (fullData) or
 * trimmed as get_execution trims it, as long as it fits what is left of the answer; one that does not
 * is summarised per node, or listed without its data when even that does not fit. Each says why. The
 * room each execution takes without its data is kept from the start, so the answer stays within the budget.
 */
async function withData(n8n: N8nClient, listed: Execution[], fullData: boolean): Promise<Record<string, unknown>[]> {
  const plain = listed.map((execution) => ({
    ...execution,
    dataTrimmed: `Its data does not fit what is left of this answer, even summarised per node. ${readAgain(execution.id)}`,
  }));
  const plainBytes = plain.map((execution) => bytesInAnswer(execution) + 1);
  let room = ANSWER_BUDGET_BYTES - ANSWER_MARGIN - plainBytes.reduce((sum, bytes) => sum + bytes, 0);
  const shown: Record<string, unknown>[] = [];
  for (const [i, execution] of listed.entries()) {
    /** What the execution's data adds to the answer. */
    const added = (answer: Record<string, unknown>) => bytesInAnswer(answer) + 1 - plainBytes[i]!;
    let answer: Record<string, unknown>;
    try {
      const read = withoutHostDetails(await n8n.get<Execution>(`/executions/${execution.id}`, { query: { includeData: true } }));
      answer = trimExecution(read, fullData);
      if (added(answer) > room)
        answer = summarised(read, `Its data does not fit what is left of this answer, so it is summarised per node. ${readAgain(execution.id)}`);
      if (added(answer) > room) answer = plain[i]!;
    } catch (error) {
      if (!(error instanceof N8nAnswerTooLarge)) throw error;
      answer = { ...execution, dataTrimmed: error.message };
    }
    room -= added(answer);
    shown.push(answer);
  }
  return shown;
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
const fullData = z
  .boolean()
  .optional()
  .describe('With includeData: return large data whole instead of summarised per node (as much as one answer holds: get_execution pages the rest)');

export const EXECUTION_TOOLS = [
  n8nTool({
    name: 'list_executions',
    title: 'List executions',
    description:
      'List workflow executions, newest first, filtered by workflow, status or project, a page at a time. With includeData ' +
      `a page holds at most ${EXECUTIONS_WITH_DATA} executions, each with its data as far as the answer holds it (one that does not fit ` +
      'is summarised per node: get_execution reads its data a page at a time).',
    input: z.object({
      workflowId: n8nId('workflow').optional().describe('Executions of this workflow'),
      status: z.enum(['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting']).optional(),
      projectId: n8nId('project').optional().describe('Executions of this project'),
      includeData,
      fullData,
      ...paging,
    }),
    annotations: READS,
    tooLarge: { readTheRest: 'Ask for fewer executions (limit), or without includeData; get_execution reads one execution a page at a time.' },
    async run({ workflowId, status, projectId, includeData, fullData, limit, cursor }, n8n) {
      const query = { workflowId, status, projectId, limit, cursor };
      if (!includeData) return page('executions', await n8n.get<Page<Execution>>('/executions', { query }), (e) => e);
      const perPage = Math.min(limit ?? EXECUTIONS_WITH_DATA, EXECUTIONS_WITH_DATA);
      const listed = await n8n.get<Page<Execution>>('/executions', { query: { ...query, limit: perPage } });
      return {
        executions: await withData(n8n, listed.data, fullData ?? false),
        ...(listed.nextCursor ? { nextCursor: listed.nextCursor } : {}),
        ...(limit !== undefined && limit > perPage
          ? { note: `With includeData a page holds at most ${EXECUTIONS_WITH_DATA} executions: nextCursor gives the next ones.` }
          : {}),
      };
    },
  }),
  n8nTool({
    name: 'get_execution',
    title: 'Get an execution',
    description:
      'Get one execution: status, timing, and with includeData what each node produced (large data summarised). ' +
      'With fullData too, data larger than one answer comes a page at a time, run by run in the order the nodes ran: ' +
      'each page says what it holds, and its nextCursor, passed as cursor, reads the next. ' +
      'view "error" answers why a run failed: the failing node and its message, the items that reached it, the path ' +
      'the run took and the items per node.',
    input: z.object({
      id: executionId,
      includeData,
      fullData,
      cursor: z
        .string()
        .regex(CURSOR_PATTERN)
        .optional()
        .describe('With includeData and fullData: where the next page of a large execution starts (the nextCursor of the page before)'),
      view: z.enum(['error']).optional().describe('"error": the failing node, its error, the items that reached it and the path the run took'),
    }),
    annotations: READS,
    view: true,
    tooLarge: { readTheRest: 'get_execution with includeData and fullData answers the data a page at a time: follow nextCursor.' },
    async run({ id, includeData, fullData, cursor, view }, n8n) {
      const read = async (withData?: boolean) => withoutHostDetails(await n8n.get<Execution>(`/executions/${id}`, { query: { includeData: withData } }));
      if (view === 'error') return errorView(await read(true));
      if (!(includeData && fullData) && cursor === undefined) return trimExecution(await read(includeData), fullData ?? false);
      const execution = await read(true);
      const bytes = bytesInAnswer(execution);
      return cursor === undefined && bytes <= ANSWER_BUDGET_BYTES - ANSWER_MARGIN ? execution : executionPage(execution, bytes, cursor);
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
