import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { McpProjectServer } from '@cairn/core/spec';
import { describe, expect, it } from 'vitest';
import { cliTrustProjectServer, terminalAsk } from '../src/commands/mcp-trust.js';
import { mcpTrustStore } from '../src/commands/mcp-trust-store.js';

const temp = (prefix: string) => mkdtemp(join(tmpdir(), prefix));

function sink() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
}

// A config value as written in a project file: the trust question must not show it.
const secretReference = ['$', '{env:API_TOKEN}'].join('');

async function setup() {
  const cwd = await temp('cairn-ws-');
  const env = { CAIRN_HOME: await temp('cairn-home-') };
  const server = (hash: string, args = ['server.js']): McpProjectServer => ({
    name: 'tools',
    config: { command: 'node', args, env: { API_TOKEN: secretReference } },
    file: join(cwd, '.cursor', 'mcp.json'),
    hash,
  });
  return { cwd, env, server };
}

describe('cliTrustProjectServer', () => {
  it('asks once, remembers a yes by hash, and asks again when the config changes', async () => {
    const { cwd, env, server } = await setup();
    const questions: string[] = [];
    const answers = ['y', 'yes'];
    const stderr = sink();
    const ask = async (question: string) => {
      questions.push(question);
      return answers.shift() ?? 'n';
    };
    const trust = cliTrustProjectServer({ cwd, env, stderr: stderr.stream, ask });
    expect(await trust(server('h1'))).toBe(true);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('This workspace\'s .cursor/mcp.json declares the MCP server "tools":');
    expect(questions[0]).toContain('command: node server.js');
    // Env values may be secrets: only their names are shown.
    expect(questions[0]).toContain('env: API_TOKEN');
    expect(questions[0]).not.toContain(secretReference);
    expect(await trust(server('h1'))).toBe(true);
    expect(questions).toHaveLength(1);
    expect(await trust(server('h2', ['other.js']))).toBe(true);
    expect(questions).toHaveLength(2);
    expect(questions[1]).toContain('changed since you trusted it');
    expect(questions[1]).toContain('command: node other.js');
    expect(await mcpTrustStore(env.CAIRN_HOME).isTrusted(cwd, { name: 'tools', hash: 'h2' })).toBe(true);
    expect(stderr.text()).toBe('');
  });

  it('does not remember a no', async () => {
    const { cwd, env, server } = await setup();
    let asked = 0;
    const ask = async () => {
      asked++;
      return 'n';
    };
    const trust = cliTrustProjectServer({ cwd, env, stderr: sink().stream, ask });
    expect(await trust(server('h1'))).toBe(false);
    expect(await trust(server('h1'))).toBe(false);
    expect(asked).toBe(2);
    expect(await mcpTrustStore(env.CAIRN_HOME).lookup(cwd, 'tools')).toBeUndefined();
  });

  it('asks one question at a time when asked about several servers at once', async () => {
    const { cwd, env, server } = await setup();
    let open = 0;
    let most = 0;
    const trust = cliTrustProjectServer({
      cwd, env, stderr: sink().stream,
      ask: async () => {
        most = Math.max(most, ++open);
        await new Promise((resolve) => setImmediate(resolve));
        open--;
        return 'y';
      },
    });
    const answers = await Promise.all(['a', 'b', 'c'].map((name) => trust({ ...server(name), name })));
    expect(answers).toEqual([true, true, true]);
    expect(most).toBe(1);
  });

  it('without a terminal never trusts a new or changed server, and says how to trust it', async () => {
    const { cwd, env, server } = await setup();
    const stderr = sink();
    const trust = cliTrustProjectServer({ cwd, env, stderr: stderr.stream });
    expect(await trust(server('h1'))).toBe(false);
    expect(stderr.text()).toContain(`project MCP server "tools" (.cursor/mcp.json) is not trusted in this workspace and was left out; review and trust the workspace's project servers with: cairn mcp trust --cwd`);
    await mcpTrustStore(env.CAIRN_HOME).trust(cwd, { name: 'tools', hash: 'h1', file: '.cursor/mcp.json' });
    expect(await trust(server('h1'))).toBe(true);
    expect(await trust(server('h2'))).toBe(false);
    expect(stderr.text()).toContain('is changed since it was trusted');
  });

  it('trusts every server with yes, without asking', async () => {
    const { cwd, env, server } = await setup();
    const trust = cliTrustProjectServer({ cwd, env, stderr: sink().stream, yes: true });
    expect(await trust(server('h1'))).toBe(true);
    expect(await mcpTrustStore(env.CAIRN_HOME).isTrusted(cwd, { name: 'tools', hash: 'h1' })).toBe(true);
  });

  it('leaves a server out, with the reason, when the trust file is damaged', async () => {
    const { cwd, env, server } = await setup();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(env.CAIRN_HOME, 'trusted-mcp.json'), 'nope');
    const stderr = sink();
    const trust = cliTrustProjectServer({ cwd, env, stderr: stderr.stream, ask: async () => 'y' });
    expect(await trust(server('h1'))).toBe(false);
    expect(stderr.text()).toMatch(/"tools" was left out: .*trusted-mcp\.json is not valid JSON/);
  });

  it('takes a question cancelled with the run as a no, without a message', async () => {
    const { cwd, env, server } = await setup();
    const stderr = sink();
    const ask = () => Promise.reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }));
    const trust = cliTrustProjectServer({ cwd, env, stderr: stderr.stream, ask });
    expect(await trust(server('h1'))).toBe(false);
    expect(stderr.text()).toBe('');
  });

  it('asks on a terminal stdin, answers no on Ctrl+C, and has nothing to ask with piped stdin', async () => {
    const piped = new PassThrough() as PassThrough & { isTTY?: boolean };
    expect(terminalAsk(piped, sink().stream)).toBeUndefined();
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const output = sink();
    const ask = terminalAsk(terminal, output.stream)!;
    const answer = ask('Start it? [y/N] ');
    terminal.write('y\r');
    expect(await answer).toBe('y');
    expect(output.text()).toContain('Start it? [y/N] ');
    const interrupted = ask('Start it? [y/N] ');
    terminal.write('\u0003');
    expect(await interrupted).toBe('');
  });

  it('reads answers from a terminal stdin it is given', async () => {
    const { cwd, env, server } = await setup();
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = sink();
    stderr.stream.on('data', (chunk) => String(chunk).includes('[y/N]') && terminal.write('yes\r'));
    const trust = cliTrustProjectServer({ cwd, env, stderr: stderr.stream, stdin: terminal });
    expect(await trust(server('h1'))).toBe(true);
    expect(await mcpTrustStore(env.CAIRN_HOME).isTrusted(cwd, { name: 'tools', hash: 'h1' })).toBe(true);
  });
});
