/**
 * n8n's hints to its own AI workflow builder are written for that builder's TypeScript SDK
 * (@n8n/workflow-sdk: `.onTrue()`, `expr('{{ … }}')`, `nextBatch(…)`, `subnodes`), which no tool here
 * takes. The importer rewrites each SDK construct into the workflow JSON the tools take (connections,
 * expression strings, credentials), writes the hints' JavaScript literals as JSON, and leaves out any
 * sentence that still holds SDK notation. Pure.
 */

/** An SDK construct, and what it is in workflow JSON. */
interface Rewrite {
  pattern: RegExp;
  json: string | ((...groups: string[]) => string);
}

const quoted = (text: string) => JSON.stringify(text);

/** The SDK's constructs, each in the words of workflow JSON; applied in order. */
const REWRITES: Rewrite[] = [
  { pattern: /expr\((['"`])([\s\S]*?)\1\)/g, json: (_, __, expression) => quoted(`=${expression!}`) },
  { pattern: /`?expr\(\)`?( wrapper)?/g, json: 'an expression string ("={{ … }}")' },
  { pattern: /`?\.onTrue\(\)`?/g, json: 'the true output (main output 0 in "connections")' },
  { pattern: /`?\.onFalse\(\)`?/g, json: 'the false output (main output 1 in "connections")' },
  { pattern: /with `?\.onCase\(index, target\)`?/g, json: 'in "connections": rule i is main output i' },
  { pattern: /`?\.onCase\(\)`? argument/g, json: 'output index' },
  {
    pattern: /Use `?\.output\(index\)\.to\(\)`? to connect from a specific (\w+)/g,
    json: (_, what) => `In "connections", each ${what!} is wired from its index in the node's "main" list (main[0] is output 0)`,
  },
  { pattern: /via `?nextBatch\((\w+)\)`?/g, json: (_, node) => `by a connection from the last node of the loop back into the ${node!} node's input` },
  { pattern: /newCredential\((['"])(.*?)\1\)/g, json: (_, __, name) => `{"id": "<credential id>", "name": ${quoted(name!)}}` },
  {
    pattern: /via the SDK `subnodes` config object using factory functions \((?:[^()]|\(\))*\)/g,
    json: 'as sub-nodes: the output of each (ai_languageModel, ai_memory, ai_tool, ai_outputParser) connects to this node in "connections"',
  },
  {
    pattern: /an `(\w+)` entry in its `subnodes` config \(typically an `(\w+)` node(?:[^()]|\([^()]*\))*\)/g,
    json: (_, kind, node) => `a sub-node on its ai_${kind!} input (typically an ${node!} node)`,
  },
  { pattern: /`nodeJson\((\w+), '([^']*)'\)`/g, json: (_, node, path) => `\`$('<${node!} name>').item.json.${path!}\`` },
  { pattern: /plug into an AI Agent's `subnodes\.(\w+)`/g, json: (_, kind) => `connect its ai_${singular(kind!)} output to an AI Agent` },
  { pattern: /as a subnode for another node's `subnodes\.(\w+)`/g, json: (_, kind) => `as a sub-node: its ai_${singular(kind!)} output goes to another node` },
  // What is left of the word is n8n's: a sub-node is a node connected to another's ai_* input.
  { pattern: /\bsubnode(s?)\b/gi, json: (_, plural) => `sub-node${plural!}` },
  // JSDoc tags: an @example of data stays (one of SDK code is left out below); a choice's hint is part of its meaning.
  { pattern: /(?<!\S)@example\s/g, json: 'Example: ' },
  { pattern: /(?<!\S)@builderHint\b/g, json: 'hint' },
];

const singular = (kind: string) => kind.replace(/s$/, '');

/**
 * SDK notation no rewrite turned into workflow JSON: SDK calls (`.to(`, `trigger(`, `tool()`…) and its
 * words. Calls of n8n's own expression language (`$fromAI(`, `$('Node')`) are workflow JSON already.
 */
const SDK_NOTATION =
  /(?<![$\w])\.(?:onTrue|onFalse|onCase|onError|output|input|to|add)\(|(?<![$\w.])(?:expr|nextBatch|newCredential|node|trigger|sticky|placeholder|languageModel|memory|tool|outputParser|nodeJson|fromAi|splitInBatches|ifElse|switchCase|embeddings?|vectorStore|retriever|documentLoader|textSplitter)\(|`subnodes|\bSDK\b/;

/**
 * A JavaScript object or array literal (single-quoted strings, bare keys) as JSON; literals that are
 * not plain data (`{ __rl: true, mode, value }` lists keys, `[...]` stands for anything) stay as written.
 */
function literalAsJson(literal: string): string {
  const json = literal
    .replace(/'((?:[^'\\]|\\.)*)'/g, (_, s: string) => JSON.stringify(s.replace(/\\'/g, "'")))
    .replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":')
    .replace(/,(\s*[}\]])/g, '$1');
  try {
    return JSON.stringify(JSON.parse(json)).replace(/([,:])(?=["{[\w-])/g, '$1 ');
  } catch {
    return literal;
  }
}

/** Each balanced {…} (outermost) of `text`, written as JSON where it is plain data. */
function literalsAsJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') {
      out += text[i];
      continue;
    }
    let depth = 0;
    let end = i;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    if (end >= text.length) {
      out += text.slice(i);
      break;
    }
    out += literalAsJson(text.slice(i, end + 1));
    i = end;
  }
  // In code spans, a single-quoted choice (`'extra'`) and a member (`responseMode: 'lastNode'`) are JSON too.
  return out
    .replace(/`'([^'`]*)'`/g, (_, s: string) => `\`${JSON.stringify(s)}\``)
    .replace(/`([A-Za-z_$][\w$]*:\s*[^`{}]+)`/g, (span, member: string) => {
      const json = literalAsJson(`{${member}}`);
      return json.startsWith('{"') ? `\`${json.slice(1, -1)}\`` : span;
    });
}

/** Sentences: ends of sentences that a capital, a quote, a code span or a list dash follows. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z"'`(-])/;

/**
 * A builder hint in the notation of workflow JSON, or '' when nothing of it is left. `withoutFilterVersion`:
 * the hint of a filter parameter, whose `options.version` depends on the typeVersion and is given by
 * the answer's shape for the typeVersion described; the hint does not restate a version of its own.
 */
export function hintInWorkflowJson(hint: string, { withoutFilterVersion = false } = {}): string {
  let text = REWRITES.reduce((t, { pattern, json }) => t.replace(pattern, json as (...groups: string[]) => string), hint);
  text = literalsAsJson(text);
  if (withoutFilterVersion) text = text.replace(/,?\s*"?version"?:\s*\d+(\.\d+)?/g, '');
  return text
    .split(SENTENCE_END)
    .filter((sentence) => !SDK_NOTATION.test(sentence))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
