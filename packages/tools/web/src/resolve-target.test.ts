import { describe, expect, it } from 'vitest';
import { isHostAllowed, resolveTarget } from './resolve-target.js';

describe('isHostAllowed', () => {
  it('matches host names, IPv6 literals with or without brackets, and host:port entries', () => {
    expect(isHostAllowed(new URL('http://LocalHost:3000/'), ['localhost'])).toBe(true);
    expect(isHostAllowed(new URL('http://[::1]:8080/'), ['::1'])).toBe(true);
    expect(isHostAllowed(new URL('http://[::1]:8080/'), ['[::1]:8080'])).toBe(true);
    expect(isHostAllowed(new URL('http://[::1]:8081/'), ['[::1]:8080'])).toBe(false);
    expect(isHostAllowed(new URL('http://127.0.0.1/'), ['127.0.0.1:80'])).toBe(true);
    expect(isHostAllowed(new URL('https://127.0.0.1/'), ['127.0.0.1:80'])).toBe(false);
    expect(isHostAllowed(new URL('http://evil-localhost/'), ['localhost'])).toBe(false);
    expect(isHostAllowed(new URL('http://localhost.evil.example/'), ['localhost'])).toBe(false);
  });
});

describe('resolveTarget', () => {
  it('reports a name that does not resolve', async () => {
    const failing = async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nope.example'), { code: 'ENOTFOUND' }));
    await expect(resolveTarget(new URL('https://nope.example/'), [], failing)).rejects.toThrow('Could not resolve the host nope.example (ENOTFOUND)');
    await expect(resolveTarget(new URL('https://empty.example/'), [], async () => [])).rejects.toThrow('has no addresses');
  });

  it('returns every checked address of a public name, and refuses URLs with credentials', async () => {
    const addresses = [{ address: '93.184.216.34', family: 4 as const }, { address: '2606:2800:220:1::1', family: 6 as const }];
    expect(await resolveTarget(new URL('https://example.com/'), [], async () => addresses)).toEqual(addresses);
    await expect(resolveTarget(new URL('https://user:pw@example.com/'), [], async () => addresses)).rejects.toThrow('credentials');
  });
});
