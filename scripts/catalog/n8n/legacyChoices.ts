/**
 * Choices n8n 2 removed from a parameter whose typeVersion it kept (the Code node's `language:
 * "python"`, say): a workflow written on n8n 1.x may hold them, and n8n 1.x runs it. The importer
 * reads them from the legacy packages' descriptions of the same typeVersions and keeps them beside
 * the current choices, so the validator can say "n8n 1.x only" instead of calling them wrong.
 */
import type { OptionValue, Parameter } from '../../../src/catalog/nodeSpec.ts';
import type { N8nProperty } from './mapNode.ts';

type RawOption = { name: string; value?: unknown; values?: N8nProperty[] };

export function addLegacyChoices(parameters: Parameter[], legacy: N8nProperty[]): void {
  for (const p of parameters) {
    const same = legacy.filter((r) => r.name === p.name);
    if (p.type === 'enum' || p.type === 'multi_enum') {
      const old = same.filter((r) => r.type === 'options' || r.type === 'multiOptions').flatMap((r) => (r.options ?? []) as RawOption[]);
      const current = new Set((p.enum_values ?? []).map(String));
      const removed = [...new Set(old.map((o) => (o.value ?? o.name) as OptionValue))].filter((v) => !current.has(String(v)));
      if (removed.length > 0) p.legacy_values = removed;
    } else if (p.type === 'collection' && p.options) {
      addLegacyChoices(
        p.options,
        same.filter((r) => r.type === 'collection').flatMap((r) => (r.options ?? []) as N8nProperty[]),
      );
    } else if (p.type === 'fixed_collection' && p.options) {
      const groups = same.filter((r) => r.type === 'fixedCollection').flatMap((r) => (r.options ?? []) as RawOption[]);
      for (const group of p.options) {
        addLegacyChoices(
          group.options ?? [],
          groups.filter((g) => g.name === group.name).flatMap((g) => g.values ?? []),
        );
      }
    }
  }
}
