import { type ChildProcess, spawn } from 'node:child_process';
import { link, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bundleFixture, packageRoot } from './fixtures/bundle-fixture.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProcessConfig } from './fixtures/agent-process.js';
import { processesWith } from './process-helpers.js';
import { agentEnv, attackTurn, createFixture, type Fixture, resultsSeen, runAgent, type SeenResult, attack, type Call } from './security-helpers.js';

// Issue 12, classes 6, 9 and 10: read deny rules must hold for shell commands, the agent's secrets
// must not reach commands, and no process a run starts may outlive it. The model is the attacker
// (scripted tool calls through the whole runtime); commands run for real, on the host in their own
// PID namespace or in the bubblewrap sandbox.

const sandboxed = { local: { sandboxOptions: { enabled: true } } } as const;
type RunOptions = Parameters<typeof runAgent>[2];
const everyMode: Array<[string, RunOptions]> = [
  ['agent on the host', {}],
  ['agent sandboxed', sandboxed],
  ['debug on the host', { mode: 'debug' }],
  ['plan', { mode: 'plan' }],
  ['ask', { mode: 'ask' }],
];

const run = (command: string, extra: Record<string, unknown> = {}): Call => ({ name: 'run_terminal_cmd', args: { command, timeout_ms: 20_000, ...extra } });

const secrets = ['env-secret-value', 'local-env-secret', 'PRIVATE KEY', 'evil secret'];
function expectNoSecret(seen: SeenResult[], labels: string[]): void {
  for (const [index, result] of seen.entries()) {
    for (const secret of secrets) expect(result?.text, `${labels[index]} leaked ${secret}`).not.toContain(secret);
  }
}

/** The fixture plus the secrets the read deny rules hide: `.env`, `sub/.env.local`, `~/.ssh/id_rsa`, the sibling folder. */
async function secretsFixture(): Promise<{ fixture: Fixture; permissions: { deny: string[] } }> {
  const fixture = await createFixture();
  await writeFile(join(fixture.cwd, '.env'), 'API_TOKEN=env-secret-value\n');
  await mkdir(join(fixture.cwd, 'sub'));
  await writeFile(join(fixture.cwd, 'sub', '.env.local'), 'TOKEN=local-env-secret\n');
  return { fixture, permissions: { deny: ['read(.env*)', 'read(~/.ssh/**)', `read(${fixture.evil}/**)`] } };
}

describe('read deny rules and the shell (class 6)', () => {
  it.each(everyMode)('refuses commands that name a denied file (%s)', async (_label, options) => {
    const { fixture, permissions } = await secretsFixture();
    const commands = [
      'cat .env', 'cat .e*', 'head -c 100 ./sub/.env.local', 'cd sub && cat .env.local', 'cat ~/.ssh/id_rsa', 'cat "$HOME/.ssh/id_rsa"',
      `cat ${join(fixture.home, '.ssh', 'id_rsa')}`, `cat ${join(fixture.evil, 'secret.txt')}`, 'cat ../proj-evil/*.txt', "python3 -c \"print(open('.env').read())\"",
      'cp .env leaked.txt', 'ln .env hard.txt', '. ./.env && echo "$API_TOKEN"', 'while read -r line; do echo "$line"; done < .env', 'cat "$(pwd)/.env"',
      'cat ./sub/../.env', `cat /proc/self/root${fixture.cwd}/.env`, 'git show HEAD:.env',
    ];
    const seen = await attack(fixture, commands.map((command) => run(command)), { ...options, permissions });
    for (const [index, command] of commands.entries()) {
      expect(seen[index]?.isError, `${command}: ${seen[index]?.text}`).toBe(true);
      // plan and ask refuse commands that are not read-only (python3, cp, ln) before the rules are asked.
      expect(seen[index]?.text, command).toMatch(/deny rule read\(.+\) hides|mode is read-only/);
    }
    expectNoSecret(seen, commands);
    expect((await readdir(fixture.cwd)).filter((name) => name === 'leaked.txt' || name === 'hard.txt')).toEqual([]);
  });

  it.each(everyMode)('makes denied files unreadable at the OS level for commands that do not name them (%s)', async (_label, options) => {
    const { fixture, permissions } = await secretsFixture();
    const commands = [
      `cat "$(printf '.e%sv' n)"`,
      'grep -r secret . 2>/dev/null; echo searched',
      `sh -c 'for f in $(ls -a sub); do cat "sub/$f"; done' 2>/dev/null; echo listed`,
      `python3 -c "import os; print(open(os.path.join(os.environ['HOME'], '.s' + 'sh', 'id_rsa')).read())"`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
      'd=$(dirname "$PWD")/proj-ev; cat "${d}il/secret.txt"',
      'tar -cf - . 2>/dev/null | strings | grep -i secret; echo archived',
      'cat sub/$(ls -a sub | grep env)',
    ];
    const seen = await attack(fixture, commands.map((command) => run(command)), { ...options, permissions });
    expectNoSecret(seen, commands);
    // The commands ran (they are not refused by name; plan and ask run the read-only ones), only
    // the denied files came back empty.
    expect(seen[0]?.text).toMatch(/Exit code: 0\s*$/);
    expect(seen[1]?.text).toMatch(/searched\s+Exit code: 0/);
    expect(seen[6]?.text).toMatch(/Exit code: 0\s*$/);
  });

  it('refuses a hard link or symlink the shell made to a denied file, in every tool', async () => {
    const { fixture, permissions } = await secretsFixture();
    // Only a plain host process can link to the file (a masked file is a mount point: EXDEV).
    const plainHost = { toolSettings: { shell: { processIsolation: 'off' } } };
    const make = [run(`ln "$(printf '.e%sv' n)" notes.txt`), run(`ln -s "$(printf '.e%sv' n)" pointer.txt`)];
    const readBack: Call[] = [
      { name: 'read_file', args: { path: 'notes.txt' } },
      { name: 'read_file', args: { path: 'pointer.txt' } },
      { name: 'grep', args: { pattern: 'env-secret' } },
      { name: 'grep', args: { pattern: 'env-secret', path: 'notes.txt' } },
      run('cat notes.txt'),
      run('cat pointer.txt'),
      run('cat note?.txt'),
    ];
    const { model, result } = await runAgent(fixture, [attackTurn(make, 'm'), attackTurn(readBack), { text: 'done' }], { ...plainHost, permissions });
    expect(result.status).toBe('finished');
    const made = resultsSeen(model.calls[1]);
    for (const id of ['m0', 'm1']) expect(made[id]?.text, id).toMatch(/Exit code: 0\s*$/);
    const answers = resultsSeen(model.calls[2]);
    const seen = readBack.map((_call, index) => answers[`a${index}`] as SeenResult);
    expectNoSecret(seen, readBack.map((call) => `${call.name} ${JSON.stringify(call.args)}`));
    for (const index of [0, 1, 4, 5, 6]) expect(seen[index]?.text, `a${index}`).toMatch(/hard link|deny rule|denied|refused/i);
  });

  it('a hard link planted before the run is denied to read_file and grep and masked in the PID namespace', async () => {
    const { fixture, permissions } = await secretsFixture();
    await link(join(fixture.cwd, '.env'), join(fixture.cwd, 'docs.txt'));
    const calls: Call[] = [
      { name: 'read_file', args: { path: 'docs.txt' } },
      { name: 'grep', args: { pattern: 'env-secret' } },
      run('cat "$(echo docs).txt"'),
      run(`ln "$(printf '.e%sv' n)" copy.txt; echo linked`),
    ];
    for (const options of [{}, sandboxed]) {
      const seen = await attack(fixture, calls, { ...options, permissions });
      expectNoSecret(seen, calls.map((call) => call.name));
      expect(seen[0]?.isError).toBe(true);
    }
    await expect(readFile(join(fixture.cwd, 'copy.txt'))).rejects.toThrow();
  });
});

const leakedEnvironment = {
  DATABASE_URL: 'postgres://app:db-secret@db/app', GITHUB_PAT: 'pat-secret', NPM_CONFIG__AUTH: 'npm-auth-secret', SENTRY_DSN: 'https://dsn-secret@sentry.example/1',
  OPENAI_KEY: 'openai-key-secret', OPENAI_API_KEY: 'sk-api-secret', HARMLESS_SETTING: 'harmless-value',
};

describe('the environment of commands (class 9)', () => {
  it.each([...everyMode])('is an allow-list: secrets under any name are dropped (%s)', async (_label, options) => {
    const fixture = await createFixture();
    const env = agentEnv(fixture, leakedEnvironment);
    const [listing] = await attack(fixture, [run('printenv; tr "\\0" "\\n" < /proc/self/environ')], { ...options, env });
    expect(listing?.text).toMatch(/^PATH=/m);
    expect(listing?.text).toMatch(/Exit code: 0/);
    for (const [name, value] of Object.entries(leakedEnvironment)) {
      expect(listing?.text).not.toContain(value);
      expect(listing?.text).not.toMatch(new RegExp(`^${name}=`, 'm'));
    }
  });

  it('passes what toolSettings.shell.env.pass names', async () => {
    const fixture = await createFixture();
    const env = agentEnv(fixture, leakedEnvironment);
    const [listing] = await attack(fixture, [run('env')], { env, toolSettings: { shell: { env: { pass: ['DATABASE_URL', 'HARMLESS_*'] } } } });
    expect(listing?.text).toContain('DATABASE_URL=postgres://app:db-secret@db/app');
    expect(listing?.text).toContain('HARMLESS_SETTING=harmless-value');
    expect(listing?.text).not.toContain('sk-api-secret');
  });
});

// ---- An agent in a process of its own: /proc of the agent, and commands when the agent dies ----

// The bundle sits where pnpm hoists every dependency, so the packages the sources import resolve.
const bundleDir = resolve(packageRoot, '../../node_modules/.pnpm/node_modules/.cache', `cairn-agent-process-${process.pid}`);
let agentScript = '';
let disposeBundle: () => Promise<void> = async () => {};

beforeAll(async () => {
  const bundle = await bundleFixture('agent-process', { outDir: bundleDir, noExternal: [/^@cairn\//], external: [/^(?!@cairn\/)[^./]/] });
  agentScript = bundle.script;
  disposeBundle = bundle.dispose;
}, 60_000);
afterAll(() => disposeBundle());

interface AgentProcess {
  child: ChildProcess;
  started: Promise<void>;
  finished: Promise<{ status: string; pid: number; results: Array<{ toolCallId: string; output: { value: unknown } }> } | undefined>;
  /** SIGUSR2: the agent process calls process.exit, mid-command. */
  requestExit(): void;
}

function startAgentProcess(config: AgentProcessConfig, env: Record<string, string | undefined> = process.env): AgentProcess {
  const child = spawn(process.execPath, [agentScript, JSON.stringify(config)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let exitRequested = false;
  const requestExit = () => {
    exitRequested = true;
    child.kill('SIGUSR2');
  };
  let output = '';
  let errors = '';
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolveStarted) => {
    markStarted = resolveStarted;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.includes('started\n')) markStarted();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const finished = new Promise<AgentProcess['finished'] extends Promise<infer T> ? T : never>((resolveFinished, rejectFinished) => {
    child.once('exit', () => {
      const line = output.split('\n').find((entry) => entry.startsWith('{'));
      if (line) resolveFinished(JSON.parse(line));
      else if (child.signalCode !== null || exitRequested) resolveFinished(undefined);
      else rejectFinished(new Error(`the agent process ended without a result: ${errors.slice(-2000)}`));
    });
  });
  return { child, started, finished, requestExit };
}

async function gone(marker: string, deadlineMs = 6000): Promise<string[]> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const found = (await processesWith(marker)).filter((line) => /: sleep /.test(line));
    if (found.length === 0 || Date.now() > end) return found;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

const uniqueSeconds = () => `1000.${process.pid}${Math.floor(Math.random() * 1e5)}`;

// A second agent process starts in about two seconds on an idle machine: allow for a busy one.
describe("the agent process's environment and memory (class 9)", { timeout: 60_000 }, () => {
  const processModes: Array<[string, Partial<AgentProcessConfig>]> = [
    ['agent on the host', {}],
    ['debug on the host', { mode: 'debug' }],
    ['agent sandboxed', { sandbox: true }],
    ['plan', { mode: 'plan' }],
    ['ask', { mode: 'ask' }],
  ];
  it.each(processModes)('commands cannot read it through /proc (%s)', async (_label, mode) => {
    const fixture = await createFixture();
    const commands = [
      'tr "\\0" "\\n" < /proc/$PPID/environ',
      'tr "\\0" "\\n" < /proc/{agentPid}/environ',
      'tr "\\0" "\\n" < /proc/{agentPid}/cmdline; ls -l /proc/{agentPid}/exe',
      'dd if=/proc/{agentPid}/mem bs=1 count=16 2>&1 | od -c | head -2',
      'cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -a proc-secret; echo scanned',
      'ps -eo pid,args; ls /proc | grep -c "^[0-9]"',
    ];
    const agent = startAgentProcess({ cwd: fixture.cwd, home: fixture.home, commands, ...mode }, { ...process.env, OPENAI_API_KEY: 'sk-proc-secret', DATABASE_URL: 'postgres://proc-secret@db' });
    const report = await agent.finished;
    expect(report?.status).toBe('finished');
    const texts = (report?.results ?? []).map((entry) => JSON.stringify(entry.output.value));
    expect(texts).toHaveLength(commands.length);
    for (const [index, text] of texts.entries()) {
      expect(text, commands[index]).not.toContain('proc-secret');
      expect(text, commands[index]).not.toContain('agent-process.js');
    }
    expect(texts[4]).toContain('scanned');
  });
});

describe('processes that outlive the run (class 10)', { timeout: 60_000 }, () => {
  it.each([
    ['on the host', {}],
    ['sandboxed', sandboxed],
  ])('nothing a command detaches survives the end of the run (%s)', async (_label, options) => {
    const fixture = await createFixture();
    const seconds = uniqueSeconds();
    const calls = [
      run(`setsid sleep ${seconds} > /dev/null 2>&1 &`),
      run(`nohup sleep ${seconds} > /dev/null 2>&1 &`),
      run(`(sleep ${seconds} > /dev/null 2>&1 &)`),
      run(`sleep ${seconds} > /dev/null 2>&1 & disown`),
      run(`setsid -f sleep ${seconds} > /dev/null 2>&1`),
      run(`setsid sleep ${seconds} > /dev/null 2>&1 & echo started`, { is_background: true }),
    ];
    await attack(fixture, calls, options);
    expect(await gone(`sleep ${seconds}`)).toEqual([]);
  });

  it.each([
    ['on the host', {}],
    ['sandboxed', sandboxed],
  ])('cancelling the run ends what a command detached (%s)', async (_label, options) => {
    const fixture = await createFixture();
    const seconds = uniqueSeconds();
    const controller = new AbortController();
    const running = runAgent(fixture, [attackTurn([run(`setsid sleep ${seconds} & sleep ${seconds}`)]), { text: 'never' }], { ...options, signal: controller.signal });
    const end = Date.now() + 10_000;
    while ((await processesWith(`sleep ${seconds}`)).filter((line) => /: sleep /.test(line)).length < 2 && Date.now() < end) await new Promise((wait) => setTimeout(wait, 50));
    controller.abort();
    expect((await running).result.status).toBe('cancelled');
    expect(await gone(`sleep ${seconds}`)).toEqual([]);
  });

  it.each([
    ['exits', false, {}],
    ['is killed with SIGKILL', true, {}],
    ['is killed with SIGKILL, sandboxed', true, { sandbox: true }],
  ])('a command dies with the agent process when it %s mid-command', async (_label, kill, mode) => {
    const fixture = await createFixture();
    const seconds = uniqueSeconds();
    const command = `setsid sleep ${seconds} > /dev/null 2>&1 & (sleep ${seconds} > /dev/null 2>&1 &); echo started; sleep ${seconds}`;
    const agent = startAgentProcess({ cwd: fixture.cwd, home: fixture.home, commands: [command], ...mode });
    await agent.started;
    const end = Date.now() + 5000;
    while ((await processesWith(`sleep ${seconds}`)).filter((line) => /: sleep /.test(line)).length < 3 && Date.now() < end) await new Promise((wait) => setTimeout(wait, 50));
    expect((await processesWith(`sleep ${seconds}`)).filter((line) => /: sleep /.test(line))).toHaveLength(3);
    if (kill) agent.child.kill('SIGKILL');
    else agent.requestExit();
    await agent.finished.catch(() => undefined);
    expect(await gone(`sleep ${seconds}`)).toEqual([]);
  });
});
