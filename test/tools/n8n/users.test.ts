import { describe, expect, it } from 'vitest';
import { toolsFor } from '../../../src/server/registry';
import { withN8n } from '../../support/hostile';
import { callDirect, sentToN8n } from '../../support/tools';

const email = () => `user-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe('the user tools', () => {
  it('create_user invites an address as a member unless told otherwise, and answers the invitation', async () => {
    const address = email();
    const { result, sent } = await sentToN8n(() => callDirect('create_user', { email: address }));
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/users', body: [{ email: address, role: 'global:member' }] });
    expect(result.json).toMatchObject({ user: { email: address, id: expect.any(String) } });
  });

  it("answers n8n's per-address refusal as an error naming the address", async () => {
    const address = email();
    await callDirect('create_user', { email: address, role: 'global:admin' });
    const again = await callDirect('create_user', { email: address });
    expect(again.isError).toBe(true);
    expect(again.text).toBe(`Error: n8n did not invite ${address}: ${address} is already a user`);
  });

  it('get_user finds a user by e-mail or id; delete_user removes one; list_users lists them', async () => {
    const address = email();
    const { user } = (await callDirect('create_user', { email: address })).json;
    expect((await callDirect('get_user', { id: address })).json).toMatchObject({ id: user.id, email: address });
    expect((await callDirect('list_users', { limit: 250 })).json.users).toContainEqual(expect.objectContaining({ id: user.id }));
    expect((await callDirect('delete_user', { id: user.id })).json).toEqual({ deleted: true, id: user.id });
    expect((await callDirect('get_user', { id: user.id })).isError).toBe(true);
  });

  it('takes a user id only as a UUID or an e-mail address', () => {
    const getUser = toolsFor(withN8n()).find((t) => t.name === 'get_user')!;
    for (const id of ['..', 'abc', 'a/b@example.com/..']) expect(getUser.input.safeParse({ id }).success, id).toBe(false);
    expect(getUser.input.safeParse({ id: crypto.randomUUID() }).success).toBe(true);
  });
});
