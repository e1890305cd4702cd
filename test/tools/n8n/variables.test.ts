import { describe, expect, it } from 'vitest';
import { toolsFor } from '../../../src/server/registry';
import { withN8n } from '../../support/hostile';
import { callDirect } from '../../support/tools';

describe('the variable tools', () => {
  it('create_variable says it was created when n8n answers with no body; list_variables shows it; delete_variable removes it', async () => {
    const key = `KEY_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;
    expect((await callDirect('create_variable', { key, value: 'v' })).json).toEqual({ created: true, key });
    const listed = (await callDirect('list_variables', { limit: 250 })).json.variables.find((v: { key: string }) => v.key === key);
    expect(listed).toMatchObject({ key, value: 'v', id: expect.any(String) });
    expect((await callDirect('delete_variable', { id: listed.id })).json).toEqual({ deleted: true, id: listed.id });
    expect((await callDirect('list_variables', { limit: 250 })).json.variables).not.toContainEqual(expect.objectContaining({ key }));
  });

  it('takes only a key expressions can name ($vars.<key>)', () => {
    const create = toolsFor(withN8n()).find((t) => t.name === 'create_variable')!;
    for (const key of ['1abc', 'with-dash', 'with space', '']) expect(create.input.safeParse({ key, value: 'v' }).success, key).toBe(false);
    expect(create.input.safeParse({ key: '_ok_1', value: 'v' }).success).toBe(true);
  });
});
