/**
 * The settings every n8n node has beside its parameters: keys of the node object in workflow JSON,
 * not of its `parameters`. One definition, described the way parameters are (get_node_details answers
 * them with include_settings). Types, defaults, limits and choices as n8n's editor (1.123) declares
 * them in its node settings; the words are n8n's, shortened.
 */
import type { Parameter } from './nodeSpec';

const setting = (name: string, type: Parameter['type'], default_value: unknown, description: string, extra: Partial<Parameter> = {}): Parameter => ({
  name,
  type,
  required: false,
  default_value,
  description,
  ...extra,
});

const retrying = { display_options: { show: { retryOnFail: [true] } } };

export const NODE_SETTINGS: Parameter[] = [
  setting('alwaysOutputData', 'boolean', false, 'Output one empty item when the node outputs none, so the nodes after it still run (not on triggers)'),
  setting('executeOnce', 'boolean', false, 'Run once, with the first input item only, however many come in (not on triggers)'),
  setting('retryOnFail', 'boolean', false, 'Run the node again when it fails'),
  setting('maxTries', 'number', 3, 'Tries before the execution fails, 2 to 5', retrying),
  setting('waitBetweenTries', 'number', 1000, 'Milliseconds to wait between tries, 0 to 5000', retrying),
  setting('onError', 'enum', 'stopWorkflow', 'What happens when the node fails', {
    enum_values: ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'],
    enum_descriptions: [
      'Halt the execution and fail the workflow',
      'Pass the error message on as an item of the regular output',
      'Pass the item to an extra "error" output: the node\'s last main output in "connections"',
    ],
  }),
  setting('continueOnFail', 'boolean', false, 'What older workflows write for onError "continueRegularOutput": write onError instead'),
  setting('disabled', 'boolean', false, 'Skip the node: its input items pass on to the next node unchanged'),
  setting('notes', 'string', '', 'A note kept with the node'),
  setting('notesInFlow', 'boolean', false, "Show the note on the canvas as the node's subtitle"),
];

/** Where the settings are written, said once with them. */
export const SETTINGS_PLACE =
  'keys of the node object beside "parameters", not inside it: {"name": "Filter", "type": "n8n-nodes-base.filter", "typeVersion": 2.3, ' +
  '"alwaysOutputData": true, "onError": "continueErrorOutput", "parameters": {…}, "position": [0, 0]}';
