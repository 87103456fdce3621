import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { io } from './cli-io.js';

async function script(shell: string): Promise<string> {
  const cli = io(['completion', shell], {});
  expect(await cli.run()).toBe(0);
  return cli.out();
}

/** Run bash's completion function for the words typed so far (the last one is being completed). */
function bashComplete(completion: string, words: string[]): string[] {
  const program = `${completion}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cairn; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('cairn completion', () => {
  it('bash completes subcommands, their own options and option values', async () => {
    const bash = await script('bash');
    expect(bashComplete(bash, ['cairn', 'do'])).toEqual(['doctor']);
    expect(bashComplete(bash, ['cairn', 'doctor', '--j'])).toEqual(['--json']);
    expect(bashComplete(bash, ['cairn', 'mcp', ''])).toEqual(expect.arrayContaining(['list', 'trust']));
    expect(bashComplete(bash, ['cairn', '--output-format', 's'])).toEqual(['stream-json']);
    expect(bashComplete(bash, ['cairn', 'completion', '--he'])).toEqual(['--help']);
    expect(bashComplete(bash, ['cairn', '--mo'])).toEqual(expect.arrayContaining(['--model', '--mode']));
  });

  it('zsh loads the bash function through bashcompinit; fish gets one complete line per command and option', async () => {
    expect(await script('zsh')).toMatch(/^#compdef cairn\nautoload -U \+X bashcompinit && bashcompinit\n/);
    const fish = await script('fish');
    expect(fish).toContain("complete -c cairn -n '__fish_use_subcommand' -a 'doctor' -d ");
    expect(fish).toContain("complete -c cairn -n '__fish_use_subcommand' -l output-format -x -a 'text json stream-json'");
    expect(fish).toMatch(/complete -c cairn -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from [a-z ]*list/);
  });

  it('rejects an unknown shell naming the choices', async () => {
    const cli = io(['completion', 'powershell'], {});
    expect(await cli.run()).toBe(2);
    expect(cli.err()).toMatch(/value 'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish\./);
  });
});
