import { describe, expect, it } from 'vitest';
import { hostAllowed } from './network-proxy.js';

describe('hostAllowed', () => {
  it('matches hosts, subdomains, wildcard subdomains and exact IPs only', () => {
    expect(hostAllowed('registry.npmjs.org', ['npmjs.org'])).toBe(true);
    expect(hostAllowed('NPMJS.org.', ['npmjs.org'])).toBe(true);
    expect(hostAllowed('npmjs.org.evil.net', ['npmjs.org'])).toBe(false);
    expect(hostAllowed('evilnpmjs.org', ['npmjs.org'])).toBe(false);
    expect(hostAllowed('a.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(hostAllowed('127.0.0.2', ['127.0.0.1'])).toBe(false);
    expect(hostAllowed('[::1]', ['::1'])).toBe(true);
  });
});
