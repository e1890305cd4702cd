/**
 * Puts what `npm run catalog:observe` recorded (specs/observed/behaviour.json) into the n8n specs it
 * was observed for, as each configuration's behaviour in words (src/catalog/observed.ts): what
 * get_node_details answers and validation reads. Pure.
 */
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { behaviourOf, type ObservedSample } from '../../../src/catalog/observed.ts';
import type { ObservedFile } from './observe.ts';

export function applyObserved(specs: NodeSpec[], observed: ObservedFile | undefined): NodeSpec[] {
  if (!observed) return specs;
  const sample = observed.sample as ObservedSample;
  const sampleFields = [...new Set(sample.input1.flatMap((item) => Object.keys(item)))];
  return specs.map((spec) => {
    const versions: NonNullable<NodeSpec['observed']>['versions'] = {};
    for (const typeVersion of spec.type_versions ?? []) {
      const version = observed.nodes[`${spec.subtype}@${typeVersion}`];
      if (!version) continue;
      const configurations = version.configurations.map((c) => behaviourOf(c, sample));
      const carried = version.carriedFrom !== undefined ? { carried_from: version.carriedFrom } : {};
      // Versions of one description often behave alike: the runs are listed once.
      const same = Object.entries(versions).find(([, v]) => v.configurations && JSON.stringify(v.configurations) === JSON.stringify(configurations));
      versions[String(typeVersion)] = same ? { ...carried, same_as: same[0] } : { ...carried, configurations };
    }
    return Object.keys(versions).length > 0 ? { ...spec, observed: { n8n: observed.n8n, sample_fields: sampleFields, versions } } : spec;
  });
}
