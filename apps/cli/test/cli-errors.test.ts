import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@cairn/sdk';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { inCliTerms } from '../src/cli-error-text.js';
import { describeCliError } from '../src/cli-errors.js';
import { likelySubcommand } from '../src/subcommand-typo.js';
import { io, useTempCairnHome } from './cli-io.js';

useTempCairnHome();

/** What an SDK caller changes, which a CLI user cannot: none of it may reach the CLI's messages. */
const sdkTerms = /providers\.\w|local\.\w|Agent\.\w|Cairn\.\w|registry\.use|\bpass model\b/;

describe('errors in CLI terms', () => {
  it('rewrites the SDK messages users meet into flags, variables and commands', () => {
    // Messages as the SDK throws them (packages/providers, packages/core).
    const messages = [
      'OpenAI API key is missing: set OPENAI_API_KEY or pass providers.openai.apiKey.',
      'Anthropic rejected the API key. Check ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.',
      'Cannot reach OpenAI at http://x/v1 (ENOTFOUND). Check that the server is running, or fix OPENAI_BASE_URL / providers.openai.baseURL.',
      'Anthropic API key missing: set ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.',
      'Gemini API key missing: set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass providers.google.apiKey.',
      'No agent agent-x in the store. List agents with Agent.list() (or `cairn agents`).',
      'No agent agent-x in the store. List agents with Agent.list().',
      'The workspace folder /nowhere does not exist. Create it or pass another local.cwd.',
      'Agent.create: local.cwd /etc/hosts is a file, not a folder.',
      'Model "openai/" names no model after the provider. Write it as "openai/<model>", or list the models with Cairn.models.list().',
      'Unknown model provider "nowhere" in "nowhere/x". Known providers: openai, ollama. Register its plugin with registry.use(...) or fix the model id.',
      'Cannot reach Ollama at http://127.0.0.1:9/v1 (ECONNREFUSED). Start Ollama (`ollama serve`), or point OLLAMA_BASE_URL or providers.ollama.baseURL to it.',
      '.cairn/settings.json is not valid JSON (Unexpected token). Fix it, or leave its layer out of local.settingSources.',
      'This agent was closed. Resume it with Agent.resume(agentId) to send again.',
    ];
    for (const message of messages) expect(inCliTerms(message), message).not.toMatch(sdkTerms);
    expect(inCliTerms(messages[0]!)).toBe('OpenAI API key is missing: set OPENAI_API_KEY, or pick a model of a provider whose key is set with --model.');
    expect(inCliTerms(messages[1]!)).toBe('Anthropic rejected the API key. Check ANTHROPIC_API_KEY.');
    expect(inCliTerms(messages[5]!)).toBe('No agent agent-x in the store. List agents with `cairn agents`.');
    expect(inCliTerms(messages[7]!)).toBe('The workspace folder /nowhere does not exist. Create it or pass another --cwd.');
    expect(inCliTerms(messages[8]!)).toBe('--cwd /etc/hosts is a file, not a folder.');
    expect(inCliTerms(messages[11]!)).toBe('Cannot reach Ollama at http://127.0.0.1:9/v1 (ECONNREFUSED). Start Ollama (`ollama serve`), or point OLLAMA_BASE_URL to it.');
    expect(describeCliError(new ConfigurationError(messages[10]!))).toMatch(/Fix the model id given to --model or in CAIRN_MODEL \(`cairn models` lists them\)\.$/);
  });

  it('a missing key names the variable and --model, not the SDK option', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hi'], { CAIRN_HOME: process.env.CAIRN_HOME });
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(await cli.run()).toBe(2);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
    expect(cli.err()).toMatch(/^cairn: OpenAI API key is missing: set OPENAI_API_KEY, or pick a model of a provider whose key is set with --model\.$/m);
    expect(cli.err()).not.toMatch(sdkTerms);
  });

  it('`cairn runs <unknown>` is an error that says how to list agents', async () => {
    const cli = io(['runs', 'agent-does-not-exist']);
    expect(await cli.run()).toBe(2);
    expect(cli.out()).toBe('');
    expect(cli.err()).toBe('cairn: No agent agent-does-not-exist in the store. List agents with `cairn agents`.\n');
  });

  it('a refused connection to a local server fails at once: one line, exit 1, no retry', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const closed = await startChatCompletionsServer([]);
    await closed.close();
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: closed.url, OPENAI_API: 'chat' });
    delete process.env.CAIRN_RETRY_MAX_ATTEMPTS;
    try {
      const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hi'], process.env);
      expect(await cli.run()).toBe(1);
      // The headless permissions notice aside: the error, then how to continue the agent; no retry notice.
      const lines = cli.err().split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[permissions:'));
      expect(lines, cli.err()).toHaveLength(2);
      expect(lines[0]).toBe(`cairn: Cannot reach OpenAI at ${closed.url} (ECONNREFUSED). Check that the server is running, or fix OPENAI_BASE_URL.`);
      expect(lines[1]).toMatch(/^\[agent agent-[\w-]+ · run run-[\w-]+ · failed · resume with --resume agent-[\w-]+\]$/);
    } finally {
      process.env = saved;
    }
  });
});

describe('a subcommand typo', () => {
  it('suggests the command instead of sending the word to the model', async () => {
    const server = await startChatCompletionsServer([{ text: 'should not be asked' }]);
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat', CAIRN_MODEL: 'openai/gpt-4.1-mini' });
    try {
      for (const [typo, meant] of [['agnets', 'agents'], ['modles', 'models'], ['serach', 'search'], ['cancle', 'cancel']]) {
        const cli = io([typo!], process.env);
        expect(await cli.run()).toBe(2);
        expect(cli.err()).toBe(`cairn: unknown command "${typo}". Did you mean \`cairn ${meant}\`? To send "${typo}" to the model as a prompt, pipe it: echo ${typo} | cairn\n`);
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      process.env = saved;
      await server.close();
    }
  });

  it('is one word close to a subcommand name; anything else is a prompt', () => {
    const names = ['agents', 'runs', 'models', 'cancel', 'index', 'search', 'mcp'];
    expect(likelySubcommand(['agent'], names)).toBe('agents');
    expect(likelySubcommand(['Modles'], names)).toBe('models');
    expect(likelySubcommand(['mpc'], names)).toBe('mcp');
    // Not close enough, more than one word, a subcommand itself, or not a word.
    for (const words of [['explain'], ['fix'], ['hello'], ['agnets', 'please'], ['models'], ['agents?'], ['src/index.ts']]) expect(likelySubcommand(words, names), words.join(' ')).toBeUndefined();
  });
});
