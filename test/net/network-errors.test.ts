import { describe, expect, it } from 'vitest';
import { ADDRESS_REFUSED, networkCause, REMOTE_TEXT_MAX, remoteText } from '../../src/net/network-errors.ts';

describe('remoteText', () => {
  it('keeps a short text as it is', () => {
    expect(remoteText('Not Found')).toBe('Not Found');
  });

  it(`cuts a long one to ${REMOTE_TEXT_MAX} characters, the last an ellipsis`, () => {
    const cut = remoteText('x'.repeat(6000));
    expect([...cut]).toHaveLength(REMOTE_TEXT_MAX);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('counts characters, not UTF-16 units, so a cut never splits one', () => {
    const cut = remoteText('🙂'.repeat(500), 10);
    expect(cut).toBe(`${'🙂'.repeat(9)}…`);
  });

  it('writes control characters as spaces', () => {
    expect(remoteText('a\u0000b\u001bc\u007fd')).toBe('a b c d');
  });
});

describe('networkCause', () => {
  it('says the same of every refused address, without what is behind it', () => {
    const refused = Object.assign(new Error('x'), { code: ADDRESS_REFUSED });
    expect(networkCause(new TypeError('fetch failed', { cause: refused }))).toBe(
      'its address is refused (the server never fetches from this machine, link-local or special addresses)',
    );
  });
});
