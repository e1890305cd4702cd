import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { classRefusal, nodePolicyOf, policySummary } from '../../src/auth/nodePolicy';

const caller = (...scopes: string[]) => ({ id: 'key_t', subject: 'key_t', scopes });
const policy = (vars: { ALLOWED_NODE_CLASSES?: string; NODE_CLASS_OVERRIDES?: string }) => nodePolicyOf({ ...env, ...vars });

describe('the node policy a deployment sets', () => {
  it('by default lets callers with the scope use code and credentials, and no caller the host (as n8n 2.x keeps Execute Command out)', () => {
    const defaults = policy({});
    expect([...defaults.allowed]).toEqual(['code', 'credentials']);
    expect(classRefusal(caller('*'), defaults, 'code')).toBeNull();
    expect(classRefusal(caller('*'), defaults, 'host')).toMatch(/lets no caller use class "host" \(the operator's ALLOWED_NODE_CLASSES\)/);
  });

  it("is narrowed by the caller's workspace, never widened: a class the deployment refuses stays refused", () => {
    const narrowed = nodePolicyOf({ ...env, ALLOWED_NODE_CLASSES: 'code,credentials' }, { nodeClasses: ['credentials', 'host'] });
    expect(classRefusal(caller('*'), narrowed, 'credentials')).toBeNull();
    expect(classRefusal(caller('*'), narrowed, 'code')).toMatch(/workspace lets no caller use class "code"/);
    expect(classRefusal(caller('*'), narrowed, 'host')).toMatch(/this deployment lets no caller use class "host"/);
    expect(policySummary(narrowed).map((c) => [c.class, c.allowed])).toEqual([
      ['host', false],
      ['code', false],
      ['credentials', true],
    ]);
  });

  it('takes a list of classes, or none', () => {
    expect([...policy({ ALLOWED_NODE_CLASSES: 'host, code,credentials' }).allowed]).toEqual(['host', 'code', 'credentials']);
    expect([...policy({ ALLOWED_NODE_CLASSES: 'none' }).allowed]).toEqual([]);
    expect([...policy({ ALLOWED_NODE_CLASSES: '' }).allowed]).toEqual([]);
  });

  it('each class needs its own scope: workflows:host, workflows:code, credentials:use; * has them all', () => {
    const all = policy({ ALLOWED_NODE_CLASSES: 'host,code,credentials' });
    expect(classRefusal(caller('workflows:write'), all, 'host')).toBe('it needs the scope "workflows:host", which this credential does not have');
    expect(classRefusal(caller('workflows:write'), all, 'code')).toMatch(/"workflows:code"/);
    expect(classRefusal(caller('workflows:write', 'credentials:write'), all, 'credentials')).toMatch(/"credentials:use"/);
    expect(classRefusal(caller('workflows:host'), all, 'host')).toBeNull();
    expect(classRefusal(caller('*'), all, 'host')).toBeNull();
  });

  it('reads the overrides: node types and packages into a class or out of all', () => {
    const read = policy({ NODE_CLASS_OVERRIDES: 'n8n-nodes-base.git=none, acme-nodes.*=code,@scope/pkg.shell=host' });
    expect(read.invalid).toBeUndefined();
    expect([...read.overrides]).toEqual([
      ['n8n-nodes-base.git', 'none'],
      ['acme-nodes.*', 'code'],
      ['@scope/pkg.shell', 'host'],
    ]);
  });

  it('allows no class at all when a variable cannot be read, and says why (a typo never widens)', () => {
    for (const vars of [{ ALLOWED_NODE_CLASSES: 'code,shell' }, { NODE_CLASS_OVERRIDES: 'n8n-nodes-base.git=trusted' }, { NODE_CLASS_OVERRIDES: 'git' }]) {
      const broken = policy(vars);
      expect(broken.invalid, JSON.stringify(vars)).toBeDefined();
      expect(classRefusal(caller('*'), broken, 'code')).toMatch(/node policy cannot be read \(.+\), so no caller may/);
    }
  });

  it('summarises what each class lets a workflow do, whether it is allowed, and its scope', () => {
    expect(policySummary(policy({}))).toEqual([
      { class: 'host', lets: expect.stringContaining('run commands'), allowed: false, scope: 'workflows:host' },
      { class: 'code', lets: expect.stringContaining('run code'), allowed: true, scope: 'workflows:code' },
      { class: 'credentials', lets: expect.stringContaining('credentials'), allowed: true, scope: 'credentials:use' },
    ]);
  });
});
