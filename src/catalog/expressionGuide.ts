/**
 * How n8n expressions are written: the text of the `n8n-guide://expressions` resource, which the
 * tool descriptions point to. Each claim checked against n8n's source and docs (n8n-workflow's
 * expression evaluation and tmpl splitting, the Webhook node's output, docs.n8n.io's expression
 * reference, built-in date methods and $jmespath pages; the Code node's modes and return value from
 * docs.n8n.io's data-structure and Code node pages and n8n-nodes-base 2.41's builder hints).
 */
export const EXPRESSION_GUIDE_URI = 'n8n-guide://expressions';

/** Where a tool description sends an agent for it: the tool first, since many clients only call tools. */
export const EXPRESSION_GUIDE_POINTER = `get_guide (also the resource ${EXPRESSION_GUIDE_URI})`;

/**
 * The guide, with its time zone section as this server knows the time zone (timeZoneSection): the
 * text of the `n8n-guide://expressions` resource and of get_guide.
 */
export const expressionGuide = (timeZone: string): string => `# Writing n8n expressions

## Syntax
- A parameter is an expression when its value starts with \`=\`: \`"={{ $json.body.email }}"\`. Without the \`=\`, \`{{ … }}\` is plain text.
- Each \`{{ … }}\` holds ONE JavaScript expression, evaluated per input item. Text around it is kept: \`"=Order {{ $json.body.id }} received"\`.
- A value that is a single \`{{ … }}\` keeps its type (number, boolean, object, array): \`"={{ $json.body.total * 1.2 }}"\`.
- Any JavaScript expression may go inside, arrow functions included: \`"={{ $json.body.items.map(i => i.price * i.qty).reduce((a, b) => a + b, 0) }}"\`, template literals, the ternary \`a ? b : c\`, \`??\`, \`?.\`.
- JavaScript's built-ins are there: \`typeof\`, \`Math\`, \`JSON\`, \`Number()\`, \`Array.isArray\`, \`Array.from\`, \`Object.entries\`, \`new Map()\`, \`new Set()\`, spread \`[...x]\`: \`"={{ [...new Set($json.body.items.map(i => i.qty))].length }}"\`, \`"={{ typeof $json.body.n === 'number' ? Math.max(...$json.body.items.map(i => i.price)) : null }}"\`.
- n8n adds functions of its own to values, and \`.keys()\` and \`.values()\` are n8n's (an object's keys and values): on a Map or a Set they give \`[]\`, silently. Take a Map's contents with \`.entries()\` (\`"={{ [...new Map([['a', 1]]).entries()].map(([k, v]) => v).length }}"\`), \`.get()\`, \`.forEach()\`; a Set's with \`[...set]\`.
- No statements inside: no \`const\`, \`if\`, \`for\`, \`return\`, no \`;\` between two expressions (n8n fails the node: "invalid syntax"). For statements, an IIFE \`"={{ (() => { const x = $json.body.n * 2; return x + 1 })() }}"\` or a Code node.
- A JSON parameter (Respond to Webhook's \`responseBody\`, HTTP Request's \`jsonBody\`) takes JSON text, or an expression that returns an object: \`"={{ { greeting: 'Hi ' + $json.body.name } }}"\`.
- A \`{{ … }}\` ends at the first \`}}\`: write object literals as \`{ a: 1 }\` with spaces, never \`}}\` inside.

## The current item
- \`$json\`: the input item's JSON (same as \`$input.item.json\`). \`$json.field\`, \`$json["field with spaces"]\`, \`$json.list[0].name\`.
- \`$binary\`: the input item's files. \`$itemIndex\`: the item's position (0-based). \`$runIndex\`: how many times this node ran before in the execution.
- \`$input.item\`, \`$input.first()\`, \`$input.last()\`, \`$input.all()\` (every input item, as \`{ json, binary }\`): these are items, so read \`$input.first().json.field\`.
- On a plain list n8n adds \`.first()\`, \`.last()\`, \`.sum()\`, \`.pluck('field')\`, \`.isEmpty()\`…: \`$json.body.items.first().price\` is the list's first element itself (no \`.json\`).

## Other nodes (by their exact name)
- \`$('Node name').item.json.field\`: the item of that node this item came from (paired items).
- \`$('Node name').first().json\`, \`.last().json\`, \`.all()\` (a list of \`{ json }\`), \`.isExecuted\`.
- Older forms, still run: \`$node["Node name"].json.field\`, \`$items("Node name")[0].json\`.

## What common nodes output
- Webhook: \`{ headers, params, query, body, webhookUrl, executionMode }\`; the caller's JSON is under \`body\`: \`$json.body.email\`, not \`$json.email\`. Header names are lower case: \`$json.headers["x-api-key"]\`.
- Form Trigger: one field per form field, named by its label (from v2.4 by its fieldName), plus \`submittedAt\`, \`formMode\`.
- Edit Fields (Set) 3.3+: only the fields it assigns, unless "includeOtherFields" is on. Summarize: \`sum_amount\`, \`count_id\`… (aggregation + "_" + field).
- get_node_details shows a node's output shape where its parameters decide it.

## Answering a webhook (Respond to Webhook)
- The Webhook waits for it with \`"responseMode": "responseNode"\`. Status 200 unless \`options.responseCode\` says otherwise.
- \`"respondWith": "json"\`: the body is \`responseBody\` as it evaluates: \`"={{ { total: $json.sum, items: [] } }}"\` answers exactly \`{"total": …, "items": []}\`, nothing added or wrapped, empty lists kept.
- \`"respondWith": "firstIncomingItem"\`: the first input item's JSON as it is (no \`json\` key around it); \`"allIncomingItems"\`: a list of every input item's JSON.
- With several items, \`json\` evaluates \`responseBody\` for the first one. No item reaching it means no answer from it: the caller gets an empty 200 (validate_workflow's items_may_not_reach_respond).

## Dates (Luxon)
- \`$now\`: the current time as a Luxon DateTime; \`$today\`: today at midnight. \`DateTime\` is available: \`DateTime.fromISO($json.body.date)\`.
- \`$now.toISO()\`, \`$now.toFormat('yyyy-MM-dd')\`, \`$now.minus({ days: 7 })\`, \`$today.plus({ hours: 1 }).toISO()\`.
- Between two dates: \`DateTime.fromISO(b).diff(DateTime.fromISO(a), 'days').days\` (a number; \`Math.round\` it across a daylight-saving change, or parse with \`{ zone: 'utc' }\`). The weekday's name: \`DateTime.fromISO(d).toFormat('cccc')\` ("Friday"); its number (Monday 1): \`.weekday\`.
- Another zone: \`DateTime.fromISO($json.body.at).setZone('Asia/Kolkata')\` (same instant; an IANA name); \`.setLocale('en')\` for English month and weekday names.
- \`toFormat\` tokens: \`yyyy\` year, \`MM\` month, \`dd\` day, \`HH\` hour (00–23), \`hh\` (01–12) with \`a\` (AM/PM), \`mm\` minute, \`ss\` second, \`cccc\` weekday name, \`ZZ\` offset as \`+05:30\`, \`z\` zone name.
- \`$now\`, \`$today\` and dates parsed without an offset are in the time zone the workflow runs in: see "Time zone" below.
- Dates pass between nodes as strings: parse them (\`DateTime.fromISO(…)\`, or n8n's \`"2024-05-01".toDateTime()\`) before date arithmetic.

## Time zone
${timeZone}

## Helpers
- \`$jmespath(object, 'search')\`: a JMESPath query, e.g. \`$jmespath($json.body, 'items[*].name')\`.
- \`$execution.id\`, \`$workflow.id\`, \`$workflow.name\`, \`$vars.NAME\` (instance variables), \`$prevNode.name\`.
- n8n adds methods to values: \`.isEmpty()\`, \`.toNumber()\`, \`.extractEmail()\`, \`.keys()\`, \`.first()\`…

## Code node (JavaScript)
- The same variables as expressions (\`$input\`, \`$('Node')\`, \`DateTime\`, \`$jmespath\`), in full JavaScript with statements and \`return\`.
- \`mode: "runOnceForAllItems"\` (default): read \`$input.all()\` (a list of \`{ json }\`) and return a list of items: \`return $input.all().map(item => ({ json: { ...item.json, total: item.json.qty * item.json.price } }))\`.
- \`mode: "runOnceForEachItem"\`: read \`$input.item.json\` and return one item: \`return { json: { greeting: "Hi " + $json.body.name } }\`.
- n8n adds a missing \`json\` key and wraps a single item in a list, in the Code node only.
- No network in the sandbox (no fetch/axios): call services with the HTTP Request node and process its output here.

## Check
validate_workflow reports references to nodes that do not exist, expressions without \`=\` or with an unclosed \`{{\`, and fields read from nodes whose output cannot have them (with the likely path).
`;

/** What this server knows of the time zone a workflow runs in. */
export interface TimeZoneFacts {
  /** Whether an n8n is configured: its default time zone is never known (n8n's public API does not show it). */
  instance: boolean;
  /** A saved workflow asked about, as n8n has it: its settings.timezone, or none. */
  workflow?: { id: string; name: string; timezone?: string };
}

/**
 * The guide's time zone section, true for this server's n8n: how n8n picks the zone (checked on n8n
 * 1.123.81: $now, $today and Luxon's parsing follow settings.timezone, JavaScript's Date does not, and
 * n8n refuses to activate a workflow whose zone it does not know, "DEFAULT" included), what is known
 * of it here, and how to pin it.
 */
export function timeZoneSection({ instance, workflow }: TimeZoneFacts): string {
  const lines = [
    '- A workflow runs in the time zone of its setting `timezone` (settings.timezone: an IANA name such as "Europe/Berlin"; n8n refuses to activate a workflow whose zone it does not know, "DEFAULT" included). Without it, in its n8n\'s default: the GENERIC_TIMEZONE n8n was started with, America/New_York when unset.',
    "- That zone is the one of `$now`, `$today` and dates Luxon parses without an offset (`DateTime.fromISO('2024-05-01T10:00')` is 10:00 there); a date with an offset keeps its instant and is shown in that zone. JavaScript's `Date` ignores it: `new Date('2024-05-01T10:00')` is read in the n8n server's own zone. Use Luxon.",
    instance
      ? '- This server\'s n8n does not say its default: n8n\'s public API does not show it, so a workflow without settings.timezone runs in a zone unknown here. try_nodes with an Edit Fields value `"={{ $now.zoneName }}"` answers it (its throwaway workflow sets no time zone).'
      : '- No n8n is configured on this server: the default time zone of the n8n your workflows run on is unknown here.',
  ];
  if (workflow) {
    const named = `Workflow "${workflow.name}" (${workflow.id})`;
    lines.push(
      workflow.timezone
        ? `- ${named} runs in ${workflow.timezone}: its settings.timezone.`
        : `- ${named} sets no time zone: it runs in its n8n's default, unknown here.`,
    );
  }
  lines.push(
    '- To be sure of the zone, pin it: settings.timezone in create_workflow, or the edit_workflow operation `{"type": "updateSettings", "settings": {"timezone": "Europe/Berlin"}}`.',
  );
  return lines.join('\n');
}
