import { describe, expect, it } from 'vitest';
import { decideAccess } from '../../src/access/access-policy.ts';
import { generateToken } from '../../src/access/access-token.ts';

const token = generateToken();
const wrong = generateToken();

type Expected = 'allow-local' | 'allow-remote' | 'forbidden' | 'unauthorized';

// address, lan mode, presented token, expected outcome
const CASES: Array<[string | undefined, boolean, string | undefined, Expected]> = [
  // This machine: never a token, whatever the mode; a wrong token does not hurt.
  ['127.0.0.1', false, undefined, 'allow-local'],
  ['127.0.0.1', true, undefined, 'allow-local'],
  ['::1', false, undefined, 'allow-local'],
  ['::ffff:127.0.0.1', true, wrong, 'allow-local'],
  // Local network, mode off: refused even with the right token.
  ['10.231.0.2', false, undefined, 'forbidden'],
  ['192.168.1.20', false, token, 'forbidden'],
  ['::ffff:192.168.1.20', false, token, 'forbidden'],
  ['fe80::1%eth0', false, token, 'forbidden'],
  // Local network, mode on: the token decides.
  ['10.231.0.2', true, token, 'allow-remote'],
  ['::ffff:10.231.0.2', true, token, 'allow-remote'],
  ['fd00:231::2', true, token, 'allow-remote'],
  ['fe80::1%eth0', true, token, 'allow-remote'],
  ['169.254.7.7', true, token, 'allow-remote'],
  ['10.231.0.2', true, undefined, 'unauthorized'],
  ['10.231.0.2', true, '', 'unauthorized'],
  ['10.231.0.2', true, wrong, 'unauthorized'],
  ['10.231.0.2', true, token.slice(1), 'unauthorized'],
  ['fd00:231::2', true, undefined, 'unauthorized'],
  // Outside: always refused, the token changes nothing.
  ['198.51.100.2', true, token, 'forbidden'],
  ['198.51.100.2', false, undefined, 'forbidden'],
  ['::ffff:8.8.8.8', true, token, 'forbidden'],
  ['2001:db8::2', true, token, 'forbidden'],
  ['100.64.0.1', true, token, 'forbidden'],
  [undefined, true, token, 'forbidden'],
  ['not-an-address', true, token, 'forbidden'],
];

const outcome = (decision: ReturnType<typeof decideAccess>): Expected => {
  if (decision.allow) return decision.remote ? 'allow-remote' : 'allow-local';
  return decision.error.code as Expected;
};

describe('decideAccess', () => {
  it.each(CASES)('%s, lan mode %s, token %s -> %s', (address, lanMode, presentedToken, expected) => {
    expect(outcome(decideAccess({ address, lanMode, token, presentedToken }))).toBe(expected);
  });

  it('refusals carry the status and a message that says what to do', () => {
    const off = decideAccess({ address: '10.231.0.2', lanMode: false, token, presentedToken: token });
    expect(off.allow).toBe(false);
    if (off.allow) return;
    expect(off.error.status).toBe(403);
    expect(off.error.toBody()).toEqual({
      ok: false,
      error: 'forbidden',
      message: 'local network mode is off: enable it in the panel or start with --lan',
    });

    const missing = decideAccess({ address: '10.231.0.2', lanMode: true, token, presentedToken: undefined });
    if (missing.allow) throw new Error('expected a refusal');
    expect(missing.error.status).toBe(401);
    expect(missing.error.message).toMatch(/Authorization: Bearer/);

    const outside = decideAccess({ address: '198.51.100.2', lanMode: true, token, presentedToken: token });
    if (outside.allow) throw new Error('expected a refusal');
    expect(outside.error.status).toBe(403);
  });

  it('no refusal message contains the token or the token sent', () => {
    for (const [address, lanMode, presentedToken] of CASES) {
      const decision = decideAccess({ address, lanMode, token, presentedToken });
      if (decision.allow) continue;
      expect(decision.error.message).not.toContain(token);
      if (presentedToken) expect(decision.error.message).not.toContain(presentedToken);
    }
  });
});
