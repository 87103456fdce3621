import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../src/connection/child-environment.js';
import { MessageLines } from '../src/connection/message-lines.js';
import { defaultResultDir } from '../src/tools/result-files.js';

describe('message lines', () => {
  it('splits newline-delimited messages across chunks, dropping a trailing \\r', () => {
    const lines = new MessageLines(1024);
    expect(lines.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines.push(Buffer.from(':2}'))).toEqual([]);
    expect(lines.push(Buffer.from('\r\n{"c":3}\n\n'))).toEqual(['{"b":2}', '{"c":3}', '']);
  });

  it('refuses a message larger than its limit, pending or complete', () => {
    expect(() => new MessageLines(8).push(Buffer.from('123456789'))).toThrow('the server sent a message larger than 8 bytes');
    const lines = new MessageLines(8);
    lines.push(Buffer.from('12345'));
    expect(() => lines.push(Buffer.from('6789\n'))).toThrow('larger than');
    expect(lines.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });
});

describe('child environment', () => {
  it('keeps the safe names on Windows whatever their case, never keys', () => {
    const env = childEnvironment({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', OPENAI_API_KEY: 'sk', USERPROFILE: 'C:\\Users\\me' }, {}, 'win32');
    expect(env).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me' });
  });

  it('drops shell functions and unset values; the config env wins', () => {
    expect(childEnvironment({ PATH: '/bin', SHELL: '() { evil; }', HOME: undefined, TERM: 'xterm' }, { TERM: 'dumb' }, 'linux')).toEqual({ PATH: '/bin', TERM: 'dumb' });
  });
});

describe('default result folder', () => {
  it('is a private folder of this user under the OS temp dir', () => {
    const folder = defaultResultDir();
    expect(folder.startsWith(tmpdir())).toBe(true);
    const info = statSync(folder);
    expect(info.isDirectory()).toBe(true);
    expect(info.mode & 0o077).toBe(0);
    expect(defaultResultDir()).toBe(folder);
  });
});
