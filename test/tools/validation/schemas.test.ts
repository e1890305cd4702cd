import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FindingsOutput, NamedObject, WorkflowJson } from '../../../src/tools/validation/schemas';
import { validateWorkflow } from '../../../src/workflows/validateWorkflow';
import { n8nCatalog } from '../../support/n8nCatalog';
import { FAULTY_WORKFLOW } from '../../support/workflows';

describe('the validation tools’ schemas', () => {
  it('NamedObject passes an object on as it came, a "__proto__" key as an own key (z.record drops it)', () => {
    const connections = JSON.parse('{"__proto__":{"main":[]},"Start":{"main":[]}}');
    const parsed = NamedObject.parse(connections) as object;
    expect(Object.keys(parsed)).toEqual(['__proto__', 'Start']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(z.record(z.string(), z.unknown()).parse(connections))).toEqual(['Start']);
  });

  it('NamedObject refuses what is not a plain object, and is an object in JSON Schema', () => {
    for (const value of [null, [], 'text', 1]) expect(NamedObject.safeParse(value).success, JSON.stringify(value)).toBe(false);
    expect(z.toJSONSchema(NamedObject)).toMatchObject({ type: 'object', additionalProperties: {} });
  });

  it('WorkflowJson takes a workflow without connections as one with none, keeps other fields, and needs nodes', () => {
    expect(WorkflowJson.parse({ nodes: [], name: 'n' })).toEqual({ nodes: [], connections: {}, name: 'n' });
    expect(WorkflowJson.safeParse({ connections: {} }).success).toBe(false);
  });

  it('FindingsOutput describes what validation answers', () => {
    const answer = validateWorkflow(FAULTY_WORKFLOW, n8nCatalog);
    expect(answer.errors.length).toBeGreaterThan(0);
    expect(FindingsOutput.parse(answer)).toEqual(answer);
  });
});
