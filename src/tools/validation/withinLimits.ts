import { LIMITS } from '../../workflows/limits';
import { ToolError } from '../tool';

const count = (n: number) => n.toLocaleString('en-US');

/** The limits in a sentence, for the tools' descriptions. */
export const SIZE_LIMITS =
  `Workflows are checked up to ${count(LIMITS.nodes)} nodes, ${count(LIMITS.connections)} connections and ` +
  `${count(LIMITS.values)} values, names of ${count(LIMITS.nameLength)} characters, texts of ${count(LIMITS.textLength)} ` +
  `and ${LIMITS.depth} levels of nesting; past one, the call is refused, naming it.`;

/**
 * Refuses a call that carries more than the workflow tools check (src/workflows/limits.ts) with the
 * sentence naming the limit, and `outcome` after it: `withinLimits(workflowOverLimit(workflow))`.
 */
export function withinLimits(problem: string | null, outcome = 'Nothing was checked.'): void {
  if (problem !== null) throw new ToolError(`${problem} ${outcome}`);
}
