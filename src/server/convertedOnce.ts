import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type Converter = StandardSchemaWithJSON['~standard']['jsonSchema']['input'];

const wrapped = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

/**
 * A tool's zod schema as the SDK registers it, its JSON Schema form converted once per isolate. The SDK
 * converts a registered tool's schemas for every new server, and a 2026-07-28 request gets a new server
 * each time: the conversion cost more than the rest of a tools/call. A tool's schema never changes, so
 * each direction (input, output) and target is converted once and the same frozen result handed back.
 * Validation is zod's own.
 */
export function convertedOnce(schema: z.ZodType): StandardSchemaWithJSON {
  let standard = wrapped.get(schema);
  if (!standard) {
    const own = schema['~standard'] as StandardSchemaWithJSON['~standard'];
    standard = {
      '~standard': {
        version: 1,
        vendor: own.vendor,
        validate: own.validate,
        jsonSchema: { input: once(own.jsonSchema.input), output: once(own.jsonSchema.output) },
      },
    };
    wrapped.set(schema, standard);
  }
  return standard;
}

/** `convert`, remembered per target; a call with library options is passed through. */
function once(convert: Converter): Converter {
  const byTarget = new Map<string, Record<string, unknown>>();
  return (options) => {
    if (options.libraryOptions !== undefined) return convert(options);
    let result = byTarget.get(options.target);
    if (!result) {
      result = deepFreeze(convert(options));
      byTarget.set(options.target, result);
    }
    return result;
  };
}

/** Shared between servers, so nobody may change it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
