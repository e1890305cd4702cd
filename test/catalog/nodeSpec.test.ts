import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NODE_TYPES, NodeSpecSchema, ParameterSchema } from '../../src/catalog/nodeSpec';
import committedSchema from '../../specs/node-spec.schema.json';
import { seedSpecs, spec } from '../support/catalog';

describe('NodeSpecSchema', () => {
  it('takes every spec of the seed taxonomy', () => {
    for (const s of seedSpecs()) expect(NodeSpecSchema.safeParse(s).success, s.subtype).toBe(true);
  });

  it('refuses a field it does not know, a node type outside the eight, and a spec without parameters', () => {
    expect(NodeSpecSchema.safeParse({ ...spec('X'), colour: 'red' }).success).toBe(false);
    expect(NodeSpecSchema.safeParse({ ...spec('X'), node_type: 'MAGIC_NODE' }).success).toBe(false);
    const { parameters, ...withoutParameters } = spec('X');
    expect(parameters).toEqual([]);
    expect(NodeSpecSchema.safeParse(withoutParameters).success).toBe(false);
  });

  it('is what specs/node-spec.schema.json says, which editors check spec files by (npm run catalog:schema)', () => {
    expect(committedSchema).toEqual({ ...z.toJSONSchema(NodeSpecSchema, { io: 'input' }), title: 'NodeSpec' });
  });

  it('names seed 002’s eight node types', () => {
    expect(NODE_TYPES).toHaveLength(8);
    expect(NODE_TYPES).toContain('HUMAN_LOOP_NODE');
  });
});

describe('ParameterSchema', () => {
  const parameter = { name: 'p', type: 'string', required: true, description: 'A parameter' };

  it('takes nested parameters, and refuses a type it does not know at any depth', () => {
    const nested = { ...parameter, type: 'fixed_collection', options: [{ ...parameter, name: 'inner' }] };
    expect(ParameterSchema.safeParse(nested).success).toBe(true);
    expect(ParameterSchema.safeParse({ ...parameter, type: 'strng' }).success).toBe(false);
    const badInner = ParameterSchema.safeParse({ ...nested, options: [{ ...parameter, type: 'strng' }] });
    expect(badInner.success).toBe(false);
    expect(badInner.error!.issues[0]!.path).toEqual(['options', 0, 'type']);
  });
});
