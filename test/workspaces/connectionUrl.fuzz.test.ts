import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKind, checkConnectionUrl } from '../../src/workspaces/connectionUrl';
import { clippedReport, RUNS } from '../support/fuzz';
import { hostileString } from '../support/hostileInputs';

/** Host spellings around the edges: addresses in every notation, names that look like addresses. */
const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6().map((a) => `[${a}]`),
  fc.constantFrom('localhost', 'n8n.local', 'x.internal', '0x7f.1', '2130706433', '[::ffff:10.0.0.1]', '[fe80::1]', '169.254.169.254', '100.64.0.1'),
);
const url = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('https', 'http', 'ftp', 'file', 'javascript', 'HTTPS'),
      host,
      fc.webPath(),
      fc.constantFrom('', '?a=1', '#x', ':443', ':5678'),
      fc.constantFrom('', 'user:pw@', 'u@'),
    )
    .map(([scheme, h, path, tail, auth]) => `${scheme}://${auth}${h}${tail}${path}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  hostileString,
  fc.string(),
);
const policy = fc.record({ serverOnLoopback: fc.boolean(), allowPrivateNetworks: fc.boolean() });

describe('the n8n URL policy, on any input', () => {
  it('answers every input with a base or a problem, never throws, and a base is only ever what the policy allows', () => {
    const details = fc.check(
      fc.property(url, policy, (raw, rules) => {
        const verdict = checkConnectionUrl(raw, rules);
        if ('problem' in verdict) return typeof verdict.problem === 'string' && verdict.problem.length > 0 && verdict.problem.length < 400;
        const parsed = new URL(verdict.base);
        const kind = addressKind(parsed.hostname);
        const loopbackDev = kind === 'loopback' && rules.serverOnLoopback;
        return (
          !parsed.username &&
          !parsed.password &&
          !parsed.search &&
          !parsed.hash &&
          !verdict.base.endsWith('/') &&
          (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopbackDev)) &&
          (kind === 'public' || loopbackDev || rules.allowPrivateNetworks)
        );
      }),
      { numRuns: RUNS },
    );
    clippedReport(details);
    expect(details.failed).toBe(false);
  });
});
