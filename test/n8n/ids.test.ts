import { describe, expect, it } from 'vitest';
import { credentialTypeName, executionId, n8nId, userIdOrEmail } from '../../src/n8n/ids';

/** Strings that the URL parser resolves out of their place, or that end a path, once in `/workflows/<id>`. */
const ESCAPING = ['.', '..', '../rest/settings', 'a/b', '%2e%2e', 'a\\b', 'a?b', 'a#b', '', ' '];

describe("n8n's id formats", () => {
  it('takes the ids n8n makes: 16-character nanoids, and the numeric ids of instances from before 1.0', () => {
    for (const ok of ['lcoyu2Fnpbyav28R', 'fake000000000001', '1', '42']) expect(n8nId('workflow').safeParse(ok).success, ok).toBe(true);
  });

  it('refuses anything else, saying what an id looks like', () => {
    for (const bad of [...ESCAPING, 'a'.repeat(37)]) {
      const parsed = n8nId('workflow').safeParse(bad);
      expect(parsed.success, JSON.stringify(bad)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('a workflow id is 1 to 36 letters and digits, as n8n makes them (e.g. "lcoyu2Fnpbyav28R")');
    }
  });

  it('takes numeric execution ids, user UUIDs or e-mail addresses, and credential type names only', () => {
    expect(executionId.safeParse('1234').success).toBe(true);
    expect(userIdOrEmail.safeParse('b489b044-e516-44c6-8aa9-3649a6db8da1').success).toBe(true);
    expect(userIdOrEmail.safeParse('ada.owner@example.com').success).toBe(true);
    expect(credentialTypeName.safeParse('githubApi').success).toBe(true);
    for (const bad of ESCAPING) {
      expect(executionId.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(userIdOrEmail.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(credentialTypeName.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(userIdOrEmail.safeParse('../users@example.com').error?.issues[0]?.message).toBe('a user is named by its id (a UUID) or its e-mail address');
  });
});
