/**
 * The text to give a trial agent for one task: the user's request (tasks.json), the one command it may
 * use to reach the server (call.ts, with its log labels filled in), and the rules of the trial. With
 * --no-knowledge the agent is also told to use no n8n knowledge of its own (issue 30's second trial).
 *
 *   npx tsx scripts/trial/prompt.ts <task id> <agent label> [--no-knowledge]
 */
import { ROOT, trialDir } from './state.ts';
import { readConventions, readTasks } from './tasks.ts';

const [taskId, agent] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const noKnowledge = process.argv.includes('--no-knowledge');
const tasks = readTasks();
const task = tasks.find((t) => t.id === taskId);
if (!task || !agent) {
  console.error(`usage: prompt.ts <task id> <agent label> [--no-knowledge]; tasks: ${tasks.map((t) => t.id).join(', ')}`);
  process.exit(2);
}
const env = `TRIAL_AGENT=${agent} TRIAL_TASK=${task.id}${process.env.TRIAL_DIR ? ` TRIAL_DIR=${trialDir()}` : ''}`;
const call = `cd ${ROOT} && ${env} npx tsx scripts/trial/call.ts`;

console.log(`${task.request}

${readConventions()}

You reach our n8n only through an MCP server, with this one command (run it in a shell):
  ${call} <tool> '<JSON arguments>'
which makes one tool call and prints its answer. In place of the tool, \`--list\` lists the tools (what
each does, their arguments), \`--resources\` the server's resources, and \`--read <uri>\` reads one.
Use nothing else: no other way to n8n, no web search, and do not read files in ${ROOT}.${
  noKnowledge
    ? `
Use no knowledge of n8n of your own: what node types exist, their parameter names and values, how
expressions are written, how workflows are shaped — take all of it from the server's answers. Where an answer
does not tell you something you need, say so in your report instead of guessing.`
    : ''
}
When done, report: the workflow id(s), and every node configuration you wrote from your own memory
because no answer gave its shape.`);
