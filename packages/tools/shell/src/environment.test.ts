import { describe, expect, it } from 'vitest';
import { commandEnvironment, isPassedName, isSecretName } from './environment.js';

describe('commandEnvironment', () => {
  it('passes only the allow-list: secrets under any name are dropped', () => {
    const source = {
      OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b', GITHUB_TOKEN: 'c', DATABASE_URL: 'd', GITHUB_PAT: 'e', NPM_CONFIG__AUTH: 'f', SENTRY_DSN: 'g', OPENAI_KEY: 'h',
      MY_SERVICE_SETTING: 'i', SSH_AUTH_SOCK: 'j', LD_PRELOAD: 'k', NODE_OPTIONS: 'l',
      PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm', UNSET: undefined,
    };
    expect(commandEnvironment(source)).toEqual({
      PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CAIRN_AGENT: '1',
    });
  });

  it('pass (names and PREFIX_*), keep, remove (names and /regex/) and set', () => {
    const source = { GITHUB_TOKEN: 'c', DATABASE_URL: 'd', MYAPP_MODE: 'x', MYAPP_TOKEN: 'y', CORP_THING: 'z', PATH: '/bin', LANG: 'C' };
    const environment = commandEnvironment(source, { pass: ['database_url', 'MYAPP_*', 'CORP_THING'], keep: ['GITHUB_TOKEN'], remove: ['/^CORP_/', 'LANG'], set: { CI: '1' } });
    expect(environment).toMatchObject({ GITHUB_TOKEN: 'c', DATABASE_URL: 'd', MYAPP_MODE: 'x', PATH: '/bin', CI: '1' });
    // A prefix never passes a name that looks like a secret; removal wins over everything.
    expect(environment).not.toHaveProperty('MYAPP_TOKEN');
    expect(environment).not.toHaveProperty('CORP_THING');
    expect(environment).not.toHaveProperty('LANG');
    expect(isPassedName('MYAPP_TOKEN', { pass: ['MYAPP_TOKEN'] })).toBe(true);
  });

  it('isSecretName judges names, with the policy deciding for names it lists', () => {
    for (const name of ['OPENAI_API_KEY', 'GITHUB_PAT', 'NPM_CONFIG__AUTH', 'SENTRY_DSN', 'DATABASE_URL', 'TOKENIZERS_PARALLELISM']) expect(isSecretName(name), name).toBe(true);
    expect(isSecretName('TOKENIZERS_PARALLELISM', { keep: ['TOKENIZERS_PARALLELISM'] })).toBe(false);
    expect(isSecretName('LANG')).toBe(false);
  });
});
