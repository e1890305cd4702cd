/**
 * Whether an answer at the answer budget (ANSWER_BUDGET_BYTES, src/config.ts) fits a Durable Object
 * value (2 MB, SQLite-backed) where this server stores one: a session's event store ({s, m}: the
 * JSON-RPC response) and a task's record (the result beside the task's arguments, up to 64 KiB of JSON
 * kept inline). Durable Object storage keeps values as V8 serializes them, so sizes are measured with
 * node:v8's serializer, the same one workerd uses (its local SQLite refuses past 8 MiB, deployed past 2 MB).
 * Each shape of answer is filled up to the budget as the server measures it (answerBytes) and its stored
 * size printed: ASCII text, ASCII with one character past U+00FF (V8 then keeps 2 bytes a character),
 * all CJK, Latin-1, quotes (escaped in the message), and a text with structuredContent beside it.
 *
 *   npx tsx bench/answerBudget.ts      Writes bench/results/answer-budget.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ANSWER_BUDGET_BYTES } from '../src/config.ts';
import { answerBytes } from '../src/protocol/answerBytes.ts';

const DO_VALUE_BYTES = 2_000_000;
const INLINE_ARGUMENT_BYTES = 64 * 1024;

/** An answer of `unit` repeated, as long as fits the budget (answerBytes), with `prefix` first. */
function filled(make: (text: string) => CallToolResult, unit: string, prefix = ''): CallToolResult {
  let [low, high] = [0, ANSWER_BUDGET_BYTES];
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (answerBytes(make(prefix + unit.repeat(mid))) <= ANSWER_BUDGET_BYTES) low = mid;
    else high = mid;
  }
  return make(prefix + unit.repeat(low));
}

const text = (body: string): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify({ body }) }] });
/** A validate_workflow-like answer: findings as text and as structuredContent. */
const structured = (body: string): CallToolResult => {
  const value = { valid: false, errors: [{ node: 'Set', message: body, path: 'parameters.value' }], warnings: [] };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
};

const shapes: [string, CallToolResult][] = [
  ['ASCII', filled(text, 'a')],
  ['ASCII and one € (two-byte string)', filled(text, 'a', '€')],
  ['CJK', filled(text, '中')],
  ['Latin-1 (é)', filled(text, 'é')],
  ['quotes (escaped twice)', filled(text, '"')],
  ['structuredContent, ASCII and one €', filled(structured, 'a', '€')],
];

/**
 * The largest arguments a task keeps inline, by V8 size: 64 KiB of JSON as the task measures it
 * (JSON.stringify), of numbers that are doubles in V8 (9 bytes each): -0 is written "0".
 */
const worstArguments = { numbers: Array.from({ length: Math.floor(INLINE_ARGUMENT_BYTES / 2) - 10 }, () => -0) };
const argumentBytes = serialize(worstArguments).byteLength;

const rows = shapes.map(([shape, result]) => {
  const event = { s: crypto.randomUUID(), m: { jsonrpc: '2.0', id: 'a-request-id-of-64-characters-0123456789012345678901234567890123', result } };
  const now = Date.now();
  const task = {
    taskId: crypto.randomUUID(),
    owner: 'key_0123456789abcdef',
    caller: { id: 'key_0123456789abcdef', subject: 'key_0123456789abcdef', scopes: ['*'] },
    tool: 'get_execution',
    arguments: worstArguments,
    status: 'completed',
    createdAt: now,
    lastUpdatedAt: now,
    callId: crypto.randomUUID(),
    deadline: now,
    timeoutMs: 120_000,
    result,
    inputResponses: {},
  };
  return { shape, answerBytes: answerBytes(result), eventBytes: serialize(event).byteLength, taskRecordBytes: serialize(task).byteLength };
});

console.log(`answer budget ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} bytes; a Durable Object value ${DO_VALUE_BYTES.toLocaleString('en-US')}`);
console.log(
  `worst inline task arguments: ${JSON.stringify(worstArguments).length.toLocaleString('en-US')} bytes of JSON, ${argumentBytes.toLocaleString('en-US')} serialized\n`,
);
console.log('shape                                  answer    event   task record');
for (const r of rows) {
  const cells = [r.answerBytes, r.eventBytes, r.taskRecordBytes].map((n) => n.toLocaleString('en-US').padStart(9));
  console.log(`${r.shape.padEnd(36)} ${cells.join(' ')}${r.taskRecordBytes > DO_VALUE_BYTES || r.eventBytes > DO_VALUE_BYTES ? '  OVER' : ''}`);
}
const worst = Math.max(...rows.map((r) => Math.max(r.eventBytes, r.taskRecordBytes)));
console.log(
  `\nlargest stored value ${worst.toLocaleString('en-US')} bytes: ${worst <= DO_VALUE_BYTES ? 'fits' : 'does NOT fit'} ${DO_VALUE_BYTES.toLocaleString('en-US')}`,
);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/answer-budget.json',
  JSON.stringify({ budget: ANSWER_BUDGET_BYTES, doValueBytes: DO_VALUE_BYTES, argumentBytes, rows, worst }, null, 2) + '\n',
);
