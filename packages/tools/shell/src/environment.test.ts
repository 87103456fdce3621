import { describe, expect, it } from 'vitest';
import { commandEnvironment, isSecretName } from './environment.js';

describe('commandEnvironment', () => {
  it('removes provider keys, tokens, passwords and cloud credentials by name and pattern', () => {
    const source = {
      OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b', GITHUB_TOKEN: 'c', NPM_TOKEN: 'd', AWS_ACCESS_KEY_ID: 'e', AWS_SECRET_ACCESS_KEY: 'f',
      MY_SERVICE_SECRET_VALUE: 'g', DATABASE_PASSWORD: 'h', google_application_credentials: 'i', SSH_AUTH_SOCK: 'j',
      PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', UNSET: undefined,
    };
    expect(commandEnvironment(source)).toEqual({ PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CAIRN_AGENT: '1' });
  });

  it('keep, remove (names and /regex/) and set override the defaults', () => {
    const environment = commandEnvironment({ GITHUB_TOKEN: 'c', INTERNAL_URL: 'x', CORP_THING: 'y', PATH: '/bin' }, { keep: ['github_token'], remove: ['INTERNAL_URL', '/^CORP_/'], set: { CI: '1' } });
    expect(environment).toMatchObject({ GITHUB_TOKEN: 'c', PATH: '/bin', CI: '1' });
    expect(environment).not.toHaveProperty('INTERNAL_URL');
    expect(environment).not.toHaveProperty('CORP_THING');
    expect(isSecretName('TOKENIZERS_PARALLELISM')).toBe(true);
    expect(isSecretName('TOKENIZERS_PARALLELISM', { keep: ['TOKENIZERS_PARALLELISM'] })).toBe(false);
  });
});
