import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertedOnce } from '../../src/server/convertedOnce';

const schema = z.object({ name: z.string().min(1), limit: z.number().int().default(10) });
const target = { target: 'draft-2020-12' } as const;

describe('convertedOnce', () => {
  it('converts each direction once: every server gets the same frozen JSON Schema zod itself gives', () => {
    const first = convertedOnce(schema);
    expect(convertedOnce(schema)).toBe(first);
    const input = first['~standard'].jsonSchema.input(target);
    expect(first['~standard'].jsonSchema.input(target)).toBe(input);
    expect(input).toEqual(schema['~standard'].jsonSchema.input(target));
    // Output differs from input here (a default makes `limit` required), so the two are kept apart.
    expect(first['~standard'].jsonSchema.output(target)).toEqual(schema['~standard'].jsonSchema.output(target));
    expect(first['~standard'].jsonSchema.output(target)).not.toEqual(input);
    expect(Object.isFrozen(input)).toBe(true);
    expect(Object.isFrozen((input as { properties: object }).properties)).toBe(true);
  });

  it('keeps a conversion per target, and passes library options through unremembered', () => {
    const standard = convertedOnce(schema)['~standard'].jsonSchema;
    const draft7 = standard.input({ target: 'draft-07' });
    expect(draft7).toEqual(schema['~standard'].jsonSchema.input({ target: 'draft-07' }));
    expect(draft7).not.toBe(standard.input(target));
    const withOptions = standard.input({ ...target, libraryOptions: {} });
    expect(withOptions).not.toBe(standard.input(target));
    expect(Object.isFrozen(withOptions)).toBe(false);
  });

  it('validates with zod: parsed values with defaults, issues for bad input', async () => {
    const { validate } = convertedOnce(schema)['~standard'];
    expect(await validate({ name: 'x' })).toEqual({ value: { name: 'x', limit: 10 } });
    const bad = await validate({ name: '' });
    expect('issues' in bad && bad.issues?.[0]?.path).toEqual(['name']);
  });
});
