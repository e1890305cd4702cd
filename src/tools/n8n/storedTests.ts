import { z } from 'zod';
import { N8nApiError, type N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { ToolError } from '../tool';
import { n8nTool, READS, REPLACES, type N8nToolContext } from './n8nTool';
import { historyFor } from '../../history/history';
import { workflowPath, type Workflow } from './workflowApi';
import { runCases, TestCase, type TestResult } from './testWorkflow';

/** A test saved with a workflow: a test case that has a name, which is how it is kept and run. */
const SavedTest = TestCase.extend({ name: z.string().min(1).max(100).describe('The test’s name, unique per workflow (saving it again replaces it)') });
type SavedTest = z.output<typeof SavedTest>;

/** A workflow's saved test cases, the named ones only when `names` is given (an unknown name is an error that lists the saved ones). */
async function savedTests(ctx: N8nToolContext, workflowId: string, names?: readonly string[]): Promise<SavedTest[]> {
  const saved = (await (await historyFor(ctx)).tests(workflowId)).map((t) => SavedTest.parse(JSON.parse(t.definition)));
  if (!names) return saved;
  const missing = names.filter((n) => !saved.some((t) => t.name === n));
  if (missing.length) {
    throw new ToolError(
      `Workflow ${workflowId} has no saved test ${missing.map((n) => `"${n}"`).join(', ')}; its tests: ${saved.map((t) => `"${t.name}"`).join(', ') || 'none'}.`,
    );
  }
  return saved.filter((t) => names.includes(t.name));
}

/** Runs a workflow's saved tests (all, or the named ones) as test_workflow runs cases (runCases). */
export async function runSavedTests(n8n: N8nClient, ctx: N8nToolContext, workflowId: string, names?: readonly string[]) {
  return runCases(n8n, ctx, workflowId, await savedTests(ctx, workflowId, names));
}

/** One line for a failed test: its name and what did not hold. */
export const failureLine = (r: TestResult): string => `"${r.name}": ${r.failures.join('; ')}`;

export const STORED_TEST_TOOLS = [
  n8nTool({
    name: 'save_workflow_test',
    title: 'Save a test with a workflow',
    description:
      'Save a test case with a workflow: the payload its trigger gets and what must hold of the run — the HTTP status, ' +
      'fields of the JSON answer (by JSON Pointer), items per node, no failed node. run_workflow_tests runs them; ' +
      'edit_workflow with runTests runs them after saving and puts the workflow back if one fails.',
    input: z.object({ id: n8nId('workflow'), test: SavedTest }),
    annotations: REPLACES,
    async run({ id, test }, n8n, ctx) {
      // A test is kept only with a workflow that exists (and goes when delete_workflow deletes it).
      await n8n.get<Workflow>(workflowPath(id)).catch((error: unknown) => {
        throw error instanceof N8nApiError && error.status === 404
          ? new ToolError(`n8n has no workflow ${id}: a test is saved with a workflow that exists. Nothing was saved.`)
          : error;
      });
      const outcome = await (await historyFor(ctx)).saveTest(id, test.name, JSON.stringify(test), ctx.caller.subject);
      if ('refused' in outcome) throw new ToolError(`The test was not saved: ${outcome.refused}.`);
      return { saved: true, id, test };
    },
  }),
  n8nTool({
    name: 'list_workflow_tests',
    title: 'List the tests of a workflow',
    description: 'The test cases saved with a workflow: what each sends and expects, who saved it and when.',
    input: z.object({ id: n8nId('workflow') }),
    annotations: READS,
    async run({ id }, _n8n, ctx) {
      const tests = await (await historyFor(ctx)).tests(id);
      return { id, tests: tests.map((t) => ({ ...(JSON.parse(t.definition) as object), savedBy: t.by, savedAt: t.at })) };
    },
  }),
  n8nTool({
    name: 'delete_workflow_test',
    title: 'Delete a test of a workflow',
    description: 'Delete a test case saved with a workflow, by name.',
    input: z.object({ id: n8nId('workflow'), name: z.string().min(1).max(100) }),
    annotations: REPLACES,
    async run({ id, name }, _n8n, ctx) {
      if (!(await (await historyFor(ctx)).deleteTest(id, name)))
        throw new ToolError(`Workflow ${id} has no saved test "${name}" (list_workflow_tests lists them).`);
      return { deleted: true, id, name };
    },
  }),
  n8nTool({
    name: 'run_workflow_tests',
    title: 'Run the tests of a workflow',
    description:
      "Run a workflow's saved tests (all, or the named ones), each through its trigger as test_workflow runs it, and " +
      'report each: passed, or what did not hold, with the execution to read (get_execution view "error").',
    input: z.object({ id: n8nId('workflow'), names: z.array(z.string()).optional().describe('Only these tests, by name') }),
    // Each test runs the workflow, which does whatever it does.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    view: true,
    checkWith: 'list_executions',
    alsoNeeds: ['executions:read'],
    timeoutMs: 120_000,
    runsLong: () => true,
    async run({ id, names }, n8n, ctx) {
      const { results, draft } = await runSavedTests(n8n, ctx, id, names);
      if (results.length === 0) return { id, passed: true, tests: [], note: 'No test is saved with this workflow: save_workflow_test saves one.' };
      // The runs ran the published version: a saved draft was not tested, which the answer says.
      return { id, passed: results.every((r) => r.passed), tests: results, ...(draft ? { draft } : {}) };
    },
  }),
];
