/**
 * Node behaviour observed on a real n8n (`npm run catalog:observe`, specs/observed/): per node
 * version, per configuration, what each scenario's run put out. The types, and the pure readings
 * answers and validation take from them: which fields an output holds and where they come from,
 * whether the input's fields and order are kept, what happens on zero items, on items without the
 * field read, and with one of two inputs empty.
 */
import { own } from '../lib/ownKeys';
import { RAN_OUT_ON, type NodeSpec, type ObservedBehaviour, type RanOutOn } from './nodeSpec';
import { isPlainObject } from '../workflows/values';

export type { ObservedBehaviour };

export interface ObservedOutput {
  items: number;
  /** Each top-level field of the output items, with the JSON type(s) it held (`string`, `number|null`). */
  fields: Record<string, string>;
  /** The `id` of each output item (which input item it came from), in output order. */
  ids?: (number | null)[];
  /** The first item, strings and lists cut short. */
  first?: unknown;
}

export interface ObservedRun {
  /** n8n ran the node (it does not run a node that was given no items). */
  ran: boolean;
  /** The node's error (the run stops there). */
  error?: string;
  outputs?: ObservedOutput[];
}

/** items: the sample; missing: items without the fields read; empty: no items; firstEmpty/secondEmpty: one of two inputs given none. */
export type ScenarioName = 'items' | 'missing' | 'empty' | 'firstEmpty' | 'secondEmpty';

export interface ObservedConfiguration {
  /** The switching choices and options that make it (`mode=combine, combineBy=combineByFields`), or `defaults`. */
  label: string;
  parameters: Record<string, unknown>;
  runs: Partial<Record<ScenarioName, ObservedRun>>;
}

export interface ObservedVersion {
  /** The n8n release it ran on. */
  n8n: string;
  /** Set when this typeVersion could not run there: the typeVersion whose runs are carried over. */
  carriedFrom?: number;
  configurations: ObservedConfiguration[];
}

export interface ObservedSample {
  input1: Record<string, unknown>[];
  input2: Record<string, unknown>[];
  missing: Record<string, unknown>[];
}

/** A configuration's runs in words, and what validation reads of them. */
export function behaviourOf(configuration: ObservedConfiguration, sample: ObservedSample): ObservedBehaviour {
  const ranOut = runsOut(configuration);
  const items = configuration.runs.items;
  const inputFields = new Set(sample.input1.flatMap((item) => Object.keys(item)));
  const behaviour: ObservedBehaviour = {
    configuration: configuration.label,
    parameters: configuration.parameters,
    outputs: (items?.outputs ?? []).map((output) => {
      const order = orderOf(output, sample);
      return {
        items: `${output.items} from ${sample.input1.length} input items`,
        fields: output.fields,
        input_fields: inputFieldsKept(output, inputFields),
        ...(order ? { order } : {}),
        ...exampleOf(output.first, sample),
      };
    }),
    on_zero_items: zeroItems(configuration.runs.empty),
    on_missing_field: missingField(configuration.runs.missing),
    runs_out: ranOut.outputs,
    ran_out_on: ranOut.on,
  };
  if (items?.error) behaviour.fails = items.error;
  else if (items && !items.ran) behaviour.fails = 'did not run on the sample items';
  if (configuration.runs.firstEmpty || configuration.runs.secondEmpty) {
    behaviour.on_one_input_empty = oneInputEmpty(configuration.runs.firstEmpty, configuration.runs.secondEmpty);
  }
  const missing = configuration.runs.missing;
  if (missing?.error && !items?.error) behaviour.fails_on_missing_field = missing.error;
  return behaviour;
}

/** The observed configuration that best matches the values given: the most switching choices in common. */
export function matchingBehaviour(behaviours: ObservedBehaviour[], values: Record<string, unknown>): ObservedBehaviour | undefined {
  let best: ObservedBehaviour | undefined;
  let bestScore = -Infinity;
  for (const behaviour of behaviours) {
    const score = agreement(behaviour.parameters, values);
    if (score > bestScore) {
      best = behaviour;
      bestScore = score;
    }
  }
  return best;
}

/** How many of a configuration's top-level choices (strings, numbers, booleans) and options the values share; a contradicted choice costs more. */
function agreement(parameters: Record<string, unknown>, values: Record<string, unknown>): number {
  let score = 0;
  for (const [name, value] of Object.entries(parameters)) {
    const given = own(values, name);
    if (isPlainObject(value) && name.toLowerCase().includes('options')) {
      const givenOptions = isPlainObject(given) ? given : {};
      for (const [option, optionValue] of Object.entries(value)) score += own(givenOptions, option) === optionValue ? 1 : -0.5;
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (given === undefined) continue;
    score += given === value ? 2 : -3;
  }
  return score;
}

/**
 * The first output item's fields that its input item (the one with its id) does not hold as they are:
 * what the node added or changed. Kept fields are in `input_fields` already.
 */
function exampleOf(first: unknown, sample: ObservedSample): { example?: Record<string, unknown> } {
  if (!isPlainObject(first)) return {};
  const input = sample.input1.find((item) => own(item, 'id') === own(first, 'id')) ?? {};
  const changed = Object.entries(first).filter(([name, value]) => JSON.stringify(own(input, name)) !== JSON.stringify(value));
  return changed.length > 0 ? { example: Object.fromEntries(changed) } : {};
}

function inputFieldsKept(output: ObservedOutput, inputFields: Set<string>): string {
  if (output.items === 0) return 'no items';
  const kept = Object.keys(output.fields).filter((n) => inputFields.has(n));
  if (kept.length === inputFields.size) return 'kept, all of them';
  if (kept.length === 0) return 'dropped: the items hold only the fields listed';
  return `some kept: ${kept.join(', ')}`;
}

function orderOf(output: ObservedOutput, sample: ObservedSample): string | undefined {
  const ids = output.ids?.filter((id): id is number => id !== null);
  if (!ids || ids.length < 2) return undefined;
  const inputOrder = sample.input1.map((item) => own(item, 'id'));
  const positions = ids.map((id) => inputOrder.indexOf(id));
  if (positions.some((p) => p < 0)) return `items by id: ${ids.join(', ')}`;
  const ascending = positions.every((p, i) => i === 0 || p > positions[i - 1]!);
  return `${ascending ? 'input order' : 'reordered'}: ids ${ids.join(', ')} (input: ${inputOrder.join(', ')})`;
}

/** A run's item counts per output, in words. */
function putsOut(run: ObservedRun): string {
  const counts = (run.outputs ?? []).map((o) => o.items);
  if (counts.every((c) => c === 0)) return 'puts out no items: nothing after it runs (the chain stops)';
  return counts.length === 1 ? `puts out ${counts[0]} items` : `puts out ${counts.map((c, i) => `${c} on output ${i}`).join(', ')}`;
}

function zeroItems(run: ObservedRun | undefined): string {
  if (!run) return 'not observed';
  if (!run.ran) return 'does not run, and nothing after it runs (the chain stops) unless a node before it has alwaysOutputData';
  if (run.error) return `fails: ${run.error}`;
  return `runs and ${putsOut(run)}`;
}

function missingField(run: ObservedRun | undefined): string {
  if (!run) return 'not observed';
  if (!run.ran) return run.error ?? 'does not run';
  if (run.error) return `fails: ${run.error}`;
  return putsOut(run);
}

function oneInputEmpty(first: ObservedRun | undefined, second: ObservedRun | undefined): string {
  const say = (run: ObservedRun | undefined, which: string) => {
    if (!run) return `${which}: not observed`;
    if (!run.ran) return `${which}: does not run (the chain stops)`;
    if (run.error) return `${which}: fails: ${run.error}`;
    return `${which}: ${putsOut(run)}`;
  };
  return `${say(first, 'input 1 empty')}; ${say(second, 'input 2 empty')}`;
}

/**
 * The outputs that put out no items in a run that was given some (a filter that matched nothing, a
 * list split that was empty), or the node did not run though one input had items (Merge with the
 * other input empty): where a chain can stop; and the runs in which that happened.
 */
function runsOut(configuration: ObservedConfiguration): { outputs: number[]; on: RanOutOn[] } {
  const empty = new Set<number>();
  const on: RanOutOn[] = [];
  for (const name of RAN_OUT_ON) {
    const run = configuration.runs[name];
    if (!run || run.error) continue;
    const here = emptyOutputs(run, name === 'firstEmpty' || name === 'secondEmpty');
    if (here.length === 0) continue;
    on.push(name);
    for (const index of here) empty.add(index);
  }
  return { outputs: [...empty].sort((a, b) => a - b), on };
}

/** The outputs a run put out nothing on; a node that did not run with one of two inputs empty, or ran with no output at all, ran out on its first. */
function emptyOutputs(run: ObservedRun, oneInputEmpty: boolean): number[] {
  if (!run.ran) return oneInputEmpty ? [0] : [];
  const outputs = run.outputs ?? [];
  if (outputs.length === 0) return [0];
  return outputs.flatMap((output, index) => (output.items === 0 ? [index] : []));
}

/**
 * What get_node_details answers of a node version's observed behaviour: the configuration nearest the
 * values the caller intends (or the defaults), and the names of the others to ask for.
 */
export function behaviourAnswer(observed: NodeSpec['observed'], typeVersion: number, values: Record<string, unknown>): Record<string, unknown> | undefined {
  const version = observed ? own(observed.versions, String(typeVersion)) : undefined;
  const configurations = observedConfigurations(observed, typeVersion);
  if (!observed || !version || !configurations || configurations.length === 0) return undefined;
  const {
    parameters,
    runs_out: _runsOut,
    ran_out_on: _on,
    fails_on_missing_field: _fails,
    configuration,
    ...said
  } = matchingBehaviour(configurations, values)!;
  // Configurations that differ by one option are named once, by the option.
  const isOption = (part: string) => /^[\w]+\.[\w]+=/.test(part);
  const others = [
    ...new Set(
      configurations.map(
        (c) =>
          c.configuration
            .split(', ')
            .filter((p) => !isOption(p))
            .join(', ') || 'defaults',
      ),
    ),
  ].filter((label) => label !== configuration);
  const options = [...new Set(configurations.flatMap((c) => c.configuration.split(', ').filter(isOption)))];
  return {
    observed_on: `n8n ${observed.n8n}${version.carried_from !== undefined ? `, typeVersion ${version.carried_from} (this typeVersion is newer than that release: its runs are carried over)` : ''}, on sample items (ids 1-3; the missing-field runs on items without the fields read)`,
    configuration,
    parameters,
    ...said,
    ...(others.length > 0 ? { other_configurations: others } : {}),
    ...(options.length > 0 ? { options_observed: options } : {}),
    ...(others.length + options.length > 0 ? { to_see_another: 'pass its values in parameters' } : {}),
  };
}

/** A typeVersion's observed configurations, followed to the typeVersion whose runs it repeats. */
export function observedConfigurations(observed: NodeSpec['observed'], typeVersion: number): ObservedBehaviour[] | undefined {
  if (!observed) return undefined;
  const version = own(observed.versions, String(typeVersion));
  return version?.same_as !== undefined ? own(observed.versions, version.same_as)?.configurations : version?.configurations;
}
