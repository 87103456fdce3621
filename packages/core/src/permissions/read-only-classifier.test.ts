// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the attacks are shell command lines with literal ${...}
import { describe, expect, it } from 'vitest';
import { starPatternsIntersect } from './command-patterns.js';
import { decodeAnsiCString } from './ansi-c-quoting.js';
import { createPermissionEngine } from './permission-engine.js';
import { analyzeShellCommand } from './shell-analysis.js';

// Issue 12, class 4: a command is read-only only if every word of it is understood.
// Each entry: a command that writes a file or runs a program, and what the verdict must name.
const notReadOnly: Array<[string, RegExp]> = [
  ["printf -v 'a[$(touch p)]' x", /printf -v/],
  ['printf -va x', /printf -v/],
  ['printf $(cat f) x', /run-time first word/],
  ["test -v 'a[$(touch p)]'", /-v/],
  ["test -R 'a[$(touch p)]'", /-R/],
  ['test -n x -a -v y', /-v/],
  ["[ -v 'a[$(touch p)]' ]", /-v/],
  ['[ $(cat f) ]', /could become an operator/],
  ["[[ -v 'a[$(touch p)]' ]]", /-v/],
  ["[[ 'a[$(touch p)]' -eq 0 ]]", /arithmetic/],
  ['[[ $(cat f) -lt 1 ]]', /arithmetic/],
  ['(( $(cat f) ))', /arithmetic|expansion/],
  ['echo $(( $(cat f) ))', /arithmetic/],
  ['echo "$(( x[$(cat f)] ))"', /arithmetic/],
  ['echo ${a[$(cat f)]}', /arithmetic/],
  ['echo ${x:$(cat f)}', /arithmetic/],
  ['echo ${!x}', /indirect/],
  ['for ((i=$(cat f); i<1; i++)); do echo; done', /arithmetic/],
  ['git grep --open-files-in-pa=touch x', /abbreviates --open-files-in-pager/],
  ['git grep -Otouch x', /-O/],
  ['git log --outp=x', /abbreviates --output/],
  ['git diff --ext-d', /abbreviates --ext-diff/],
  ['git log --show-signature', /gpg/],
  ['sort --out=FILE x', /abbreviates --output/],
  ['sort --o=FILE x', /not known to be read-only/],
  ['sort -oFILE x', /sort -o/],
  ['sort -no FILE x', /sort -o/],
  ['sort --compress-prog=sh x', /abbreviates --compress-program/],
  ['git config core.fsmonitor X --get', /git config/],
  ['git config core.fsmonitor X', /git config/],
  ['git config --get core.fsmonitor X Y', /git config/],
  ['git config --unset core.x', /git config/],
  ['git config set core.x y', /git config/],
  ['uniq - FILE', /second operand/],
  ['uniq -c in out', /second operand/],
  ['xxd -rp - FILE', /xxd -r/],
  ['xxd -revert x', /xxd -r/],
  ['xxd in out', /second operand/],
  ['date 0101', /sets the system clock/],
  ['date --s=2020', /not known|clock/],
  ['hostname evil', /host name/],
  ['tree -o out', /tree -o/],
  ['find . -fprint out', /writes a file/],
  ['find . -fls out', /writes a file/],
  ['find . -delete', /deletes/],
  ['find . -exe\\\nc touch p \\;', /runs a program/],
  ['rg --hostname-bin=touch x', /runs a program/],
  ['rg --pre=touch x', /runs a program/],
  ['rg -nz x', /decompression/],
  ['fd -x touch', /runs a program/],
  ["sed -n '1p;w out' f", /may execute or write/],
  ["sed 's/a/b/w out' f", /may execute or write/],
  ["sed -n '1e touch p' f", /may execute or write/],
  ['sed -i s/a/b/ f', /in place/],
  ['sed -ni s/a/b/ f', /in place/],
  ['sed --in-pl s/a/b/ f', /in place/],
  ["awk -e 'BEGIN{}'", /not known/],
  ["awk 'BEGIN{system(\"touch p\")}'", /system/],
  ['git -c core.pager=touch log', /-c/],
  ['git --bare log', /--bare/],
  ['git remote -v add x y', /operands/],
  ['git branch newbranch', /creates/],
  ['git tag v1', /creates/],
  ['git stash', /read-only form/],
  ['git reflog expire --all', /read-only form/],
  ['ls --colo=auto x', /not known/],
  ['cat --show=x', /not known/],
  ['file -C -m x', /compiles/],
  ['git status --porcelain=v2 --ignored=matching --untracked-files=all --find-renames=50 x; touch p', /touch/],
];
const readOnly = [
  'ls -la', 'ls --color=auto -lh src', 'cat -n a b', 'head -5 x', 'head -n 5 x', 'tail -n 20 -f log', 'wc -l $(git ls-files)', 'cat *.ts', 'grep -rn --include=*.ts foo .',
  'rg -n -g "*.ts" foo src', 'git status --short', 'git status --porcelain=v2', 'git log --oneline -5', 'git log --format=%H%x09%s -n 3', 'git log HEAD@{1} -1',
  'git diff HEAD~1 -- a.txt', 'git diff --stat main...HEAD', 'git show HEAD --stat', 'git blame -L 1,5 a', 'git config --get user.name', 'git config -l', 'git config --list --show-origin',
  'git config get user.name', 'git branch -a', 'git branch --list "feat*"', 'git tag -l', 'git remote -v', 'git stash list', 'git rev-parse --show-toplevel', 'git ls-files -z',
  'git grep -n foo', 'uniq', 'uniq -c x', 'uniq -', 'xxd x', 'xxd -p -c 16 x', 'xxd -s 0x10 -l 32 x', 'sort -n x', 'sort -k2,2 -t, -u x', '[ -f x ]', '[ -f "$X" ]',
  '[ "$X" = y ]', '[ ! "$X" ]', '[[ -n $(cat f) ]]', '[[ 1 -eq 1 ]]', '[[ $x == y* ]]', 'test -f x', 'printf "%s\\n" $(ls)', "printf '%d' 5", 'printf -- -v',
  'echo ${X:-default}', 'echo ${#x} ${x:1:2}', 'echo $(( 1 + 2 ))', 'date +%s', 'date -u +%Y', 'date -d yesterday +%F', "sed -n '/foo/p' x", "sed -n '1p;5p' x",
  "sed 's/a/b/g' x", "awk '{print $1}' x", 'find . -name "*.ts" -type f -newer x', 'du -sh .', 'jq .a x', 'ps aux', 'stat -c %s x', 'cd src && ls', 'which node',
  'seq -5 5', 'diff -u a b', 'tree -L 2', 'fd -e ts', 'hostname -f', 'echo --anything', 'git --no-pager log -p -- x', 'git -C sub status',
];

describe('read-only verdicts: every word understood (class 4)', () => {
  for (const [command, reason] of notReadOnly) {
    it(`not read-only: ${JSON.stringify(command)}`, async () => {
      const analysis = await analyzeShellCommand(command);
      expect(analysis.readOnly).toBe(false);
      const why = [analysis.unparsableReason, ...analysis.parts.map((part) => part.reason)].filter(Boolean).join(' | ');
      expect(why).toMatch(reason);
    });
  }

  it('keeps the everyday read-only commands read-only', async () => {
    const refused: string[] = [];
    for (const command of readOnly) {
      const analysis = await analyzeShellCommand(command);
      if (!analysis.readOnly) refused.push(`${command}: ${analysis.parts.find((part) => !part.readOnly)?.reason ?? analysis.unparsableReason}`);
    }
    expect(refused).toEqual([]);
  });

  it('does not auto-allow any of them under defaultDecision deny', async () => {
    const permissions = createPermissionEngine({ layers: [], defaultDecision: 'deny' });
    for (const [command] of notReadOnly) {
      const result = await permissions.check({ toolId: 'shell', toolName: 'run_terminal_cmd', category: 'shell', readOnly: false, input: { command }, subject: command, paths: [], cwd: '/tmp/workspace' });
      expect(result.decision, command).toBe('deny');
    }
  });
});

describe('pieces the analyser relies on', () => {
  it('decodes ANSI-C strings the way bash does', () => {
    expect(decodeAnsiCString("$'\\x72m'")).toBe('rm');
    expect(decodeAnsiCString("$'\\162\\155'")).toBe('rm');
    expect(decodeAnsiCString("$'\\u0072m'")).toBe('rm');
    expect(decodeAnsiCString("$'a\\tb\\'c'")).toBe("a\tb'c");
    expect(decodeAnsiCString("$'rm\\x00tail'")).toBe('rm');
    expect(decodeAnsiCString("$'\\cA'")).toBeUndefined();
  });

  it('intersects star patterns', () => {
    const any = '\u0000';
    expect(starPatternsIntersect('rm*', `r${any}m x`)).toBe(true);
    expect(starPatternsIntersect('rm -rf /*', `${any} x`)).toBe(true);
    expect(starPatternsIntersect('rm -rf /', `${any} x`)).toBe(false);
    expect(starPatternsIntersect('git push*', `git ${any}`)).toBe(true);
    expect(starPatternsIntersect('git push*', `echo ${any}`)).toBe(false);
    expect(starPatternsIntersect('git push*', `gi${any}t status`)).toBe(true);
    expect(starPatternsIntersect('npm run test', 'npm run test')).toBe(true);
  });
});
