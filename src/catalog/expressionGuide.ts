/**
 * How n8n expressions are written: the text of the `n8n-guide://expressions` resource, which the
 * tool descriptions point to. Each claim checked against n8n's source and docs (n8n-workflow's
 * expression evaluation and tmpl splitting, the Webhook node's output, docs.n8n.io's expression
 * reference, built-in date methods and $jmespath pages; the Code node's modes and return value from
 * docs.n8n.io's data-structure and Code node pages and n8n-nodes-base 2.41's builder hints).
 */
export const EXPRESSION_GUIDE_URI = 'n8n-guide://expressions';

export const EXPRESSION_GUIDE = `# Writing n8n expressions

## Syntax
- A parameter is an expression when its value starts with \`=\`: \`"={{ $json.body.email }}"\`. Without the \`=\`, \`{{ … }}\` is plain text.
- Each \`{{ … }}\` holds ONE JavaScript expression, evaluated per input item. Text around it is kept: \`"=Order {{ $json.body.id }} received"\`.
- A value that is a single \`{{ … }}\` keeps its type (number, boolean, object, array): \`"={{ $json.body.total * 1.2 }}"\`.
- No statements inside: no \`const\`, \`if\`, \`for\`, \`return\`. Use the ternary \`a ? b : c\`, \`??\`, \`?.\`, array methods; for more, an IIFE \`{{ (() => { …; return x })() }}\` or a Code node.
- A JSON parameter (Respond to Webhook's \`responseBody\`, HTTP Request's \`jsonBody\`) takes JSON text, or an expression that returns an object: \`"={{ { greeting: 'Hi ' + $json.body.name } }}"\`.
- A \`{{ … }}\` ends at the first \`}}\`: write object literals as \`{ a: 1 }\` with spaces, never \`}}\` inside.

## The current item
- \`$json\`: the input item's JSON (same as \`$input.item.json\`). \`$json.field\`, \`$json["field with spaces"]\`, \`$json.list[0].name\`.
- \`$binary\`: the input item's files. \`$itemIndex\`: the item's position (0-based). \`$runIndex\`: how many times this node ran before in the execution.
- \`$input.item\`, \`$input.first()\`, \`$input.last()\`, \`$input.all()\` (every input item, as \`{ json, binary }\`).

## Other nodes (by their exact name)
- \`$('Node name').item.json.field\`: the item of that node this item came from (paired items).
- \`$('Node name').first().json\`, \`.last().json\`, \`.all()\` (a list of \`{ json }\`), \`.isExecuted\`.
- Older forms, still run: \`$node["Node name"].json.field\`, \`$items("Node name")[0].json\`.

## What common nodes output
- Webhook: \`{ headers, params, query, body, webhookUrl, executionMode }\`; the caller's JSON is under \`body\`: \`$json.body.email\`, not \`$json.email\`. Header names are lower case: \`$json.headers["x-api-key"]\`.
- Form Trigger: one field per form field, named by its label (from v2.4 by its fieldName), plus \`submittedAt\`, \`formMode\`.
- Edit Fields (Set) 3.3+: only the fields it assigns, unless "includeOtherFields" is on. Summarize: \`sum_amount\`, \`count_id\`… (aggregation + "_" + field).
- get_node_details shows a node's output shape where its parameters decide it.

## Dates (Luxon)
- \`$now\`: the current time as a Luxon DateTime; \`$today\`: today at midnight. \`DateTime\` is available: \`DateTime.fromISO($json.body.date)\`.
- \`$now.toISO()\`, \`$now.toFormat('yyyy-MM-dd')\`, \`$now.minus({ days: 7 })\`, \`$today.plus({ hours: 1 }).toISO()\`.
- Between two dates: \`DateTime.fromISO(b).diff(DateTime.fromISO(a), 'days').days\` (a number; \`Math.round\` it across a daylight-saving change, or parse with \`{ zone: 'utc' }\`). The weekday's name: \`DateTime.fromISO(d).toFormat('cccc')\` ("Friday"); its number (Monday 1): \`.weekday\`.
- The instance's timezone (America/New_York unless set) applies to \`$now\`, \`$today\` and dates parsed without an offset; a workflow can set its own ("timezone" in its settings).
- Dates pass between nodes as strings: parse them (\`DateTime.fromISO(…)\`, or n8n's \`"2024-05-01".toDateTime()\`) before date arithmetic.

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
