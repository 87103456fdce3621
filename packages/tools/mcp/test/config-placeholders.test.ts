// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs with literal ${...} placeholders
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, mcpServerConfigHash } from '../src/config/config-hash.js';
import { expandPlaceholders } from '../src/config/expand-placeholders.js';

const values = { env: { TOKEN: 'abc', EMPTY: '', HOST: 'example.com' }, workspaceFolder: join(sep, 'work', 'repo'), userHome: join(sep, 'home', 'ann') };

describe('expandPlaceholders', () => {
  it("expands Cursor's ${env:NAME} and Claude Code's ${NAME} and ${NAME:-default} in every string value", () => {
    const written = {
      command: '${userHome}/bin/server',
      args: ['--root', '${workspaceFolder}', '--name=${workspaceFolderBasename}'],
      env: { API_KEY: '${env:TOKEN}', MODE: '${MODE:-production}', SEP: 'a${pathSeparator}b${/}c' },
      url: 'https://${HOST}/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
      startupTimeoutMs: 5000,
    };
    expect(expandPlaceholders(written, values)).toEqual({
      ok: true,
      value: {
        command: `${join(sep, 'home', 'ann')}/bin/server`,
        args: ['--root', join(sep, 'work', 'repo'), '--name=repo'],
        env: { API_KEY: 'abc', MODE: 'production', SEP: `a${sep}b${sep}c` },
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer abc' },
        startupTimeoutMs: 5000,
      },
    });
  });

  it('reports unset and empty variables instead of sending an empty value, and keeps keys as written', () => {
    expect(expandPlaceholders({ env: { '${TOKEN}': 'Bearer ${env:GITHUB_TOKEN} ${EMPTY} ${GITHUB_TOKEN}' } }, values)).toEqual({
      ok: false,
      missing: ['GITHUB_TOKEN', 'EMPTY'],
      unsupported: [],
    });
    expect(expandPlaceholders({ env: { A: '${EMPTY:-fallback}', B: '${UNSET:-}' } }, values)).toEqual({ ok: true, value: { env: { A: 'fallback', B: '' } } });
  });

  it('reports placeholders it does not know (VS Code inputs) rather than passing them on', () => {
    expect(expandPlaceholders({ args: ['${input:token}', '${1abc}'] }, values)).toEqual({ ok: false, missing: [], unsupported: ['${input:token}', '${1abc}'] });
  });

  it('leaves text without placeholders alone, $NAME and unbalanced braces included', () => {
    expect(expandPlaceholders({ args: ['$TOKEN', 'price: $5', '${TOKEN'] }, values)).toEqual({ ok: true, value: { args: ['$TOKEN', 'price: $5', '${TOKEN'] } });
  });
});

describe('mcpServerConfigHash', () => {
  it('is the sha256 of canonical JSON: key order does not matter, any change does', () => {
    const config = { command: 'npx', args: ['-y', 'server'], env: { A: '${env:A}', B: 'b' } };
    const reordered = { env: { B: 'b', A: '${env:A}' }, args: ['-y', 'server'], command: 'npx' };
    expect(canonicalJson(reordered)).toBe('{"args":["-y","server"],"command":"npx","env":{"A":"${env:A}","B":"b"}}');
    expect(mcpServerConfigHash(reordered)).toBe(mcpServerConfigHash(config));
    expect(mcpServerConfigHash(config)).toMatch(/^[0-9a-f]{64}$/);
    expect(mcpServerConfigHash({ ...config, command: 'sh' })).not.toBe(mcpServerConfigHash(config));
    expect(mcpServerConfigHash({ ...config, args: ['server', '-y'] })).not.toBe(mcpServerConfigHash(config));
    expect(mcpServerConfigHash({ ...config, env: { A: '${env:A}', B: 'c' } })).not.toBe(mcpServerConfigHash(config));
  });
});
