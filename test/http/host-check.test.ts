import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostOf, isOwnHost } from '../../src/http/host-check.ts';

describe('Host header check', () => {
  const machine = hostname().toLowerCase();
  const short = machine.split('.')[0] ?? machine;

  it.each([
    ['127.0.0.1:44555', true],
    ['localhost:44555', true],
    ['LOCALHOST', true],
    ['hud.localhost:44555', true],
    ['[::1]:44555', true],
    ['127.8.9.10', true],
    [`${machine}:44555`, true],
    [`${short}.local:44555`, true],
    [`${short}.attacker.example`, false],
    ['attacker.example:44555', false],
    ['203.0.113.7', false],
    ['[2001:db8::1]:44555', false],
    ['', false],
  ])('%s -> %s', (header, own) => {
    expect(isOwnHost(header)).toBe(own);
  });

  it('passes a request without Host (HTTP/1.0 programs)', () => {
    expect(isOwnHost(undefined)).toBe(true);
  });

  it('reads the host out of IPv6 brackets and ports', () => {
    expect(hostOf('[FE80::1]:80')).toBe('fe80::1');
    expect(hostOf('Example.org:8080')).toBe('example.org');
    expect(hostOf('::1')).toBe('::1');
  });
});
