import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from './commander.js';
import { registerInstallCommands } from './commands/install-commands.js';
import type { EmbeddingFlags } from './commands/embedding-option.js';
import { registerMcpCommands } from './commands/mcp-commands.js';
import { postgresUrlProblem } from './commands/store-url.js';
import { packageInfo } from './package-info.js';
import type { OutputFormat } from './render/run-renderer.js';
import { likelySubcommand, subcommandTypoMessage } from './subcommand-typo.js';

export interface CliIo {
  argv: string[];
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
}

const positiveInteger = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive whole number.');
  return number;
};

const postgresUrl = (value: string) => {
  const problem = postgresUrlProblem(value);
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return value;
};
const portNumber = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) throw new InvalidArgumentError('must be a port number from 0 to 65535.');
  return number;
};

const collect = (value: string, previous: string[]) => [...previous, value];

const embeddingsHelp =
  'embed chunks with this model for search by meaning: openai/text-embedding-3-small, google/gemini-embedding-001, ollama/nomic-embed-text, or openai/<model> of an OpenAI-compatible server (default: index.embeddings of .cairn/settings.json or ~/.cairn/settings.json; none = keywords only)';
const embeddingsBaseUrlHelp = "with --embeddings: the server's base URL, e.g. http://localhost:8080/v1 (default: OPENAI_BASE_URL, OLLAMA_BASE_URL / OLLAMA_HOST, GEMINI_BASE_URL)";

async function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Parse the command line and run it; resolves to the process exit code. */
export async function runCli(io: CliIo): Promise<number> {
  let exitCode = 0;
  const color = Boolean(io.stderr.isTTY) && !io.env.NO_COLOR;
  const program = new Command()
    .name('cairn')
    .version(packageInfo().version, '-v, --version', 'print the version of cairn')
    .description('A coding agent for your workspace. `cairn "prompt"` runs headless; `cairn` alone opens a chat.')
    .argument('[prompt...]', 'what the agent should do (read from stdin when it is not a terminal and no prompt is given)')
    .option('-m, --model <id>', 'model, e.g. openai/gpt-5.2, claude-opus-4-5, google/gemini-2.5-pro, auto-smart, ollama/qwen3; `cairn models` lists them (default: CAIRN_MODEL)')
    .addOption(new Option('--mode <mode>', 'agent, plan, ask or debug').default(undefined))
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('-r, --resume <agentId>', 'continue a stored agent')
    .addOption(new Option('--output-format <format>', 'how to print the run').choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--input-format <format>', 'stream-json: read user messages as JSON lines from stdin, one run each (needs --output-format stream-json)').choices(['text', 'stream-json']).default('text'))
    .option('--sandbox', 'run shell commands in the OS sandbox (bubblewrap on Linux)', false)
    .option('--max-steps <n>', 'model calls per run', positiveInteger)
    .option('--no-diagnostics', 'no language-server diagnostics after edits (same as CAIRN_DIAGNOSTICS=off)')
    .option('--plan-approve', 'with --mode plan: approve the proposed plan and execute it in agent mode in the same invocation', false)
    .option('--force', 'with --resume: take over an agent busy in another process (its running run is cancelled)', false)
    .showHelpAfterError()
    // Options after a subcommand belong to it: without this the program's own `--cwd` swallowed
    // `cairn index --cwd DIR`, and the index was built for the current folder instead.
    .enablePositionalOptions()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride()
    .action(async (words: string[], options: { model?: string; mode?: string; cwd: string; resume?: string; outputFormat: OutputFormat; inputFormat: 'text' | 'stream-json'; sandbox: boolean; maxSteps?: number; planApprove: boolean; force: boolean; diagnostics: boolean }) => {
      // Read where the agents are opened (open-agent.ts, the chat's setup) and by the diagnostics pack.
      if (options.diagnostics === false) io.env.CAIRN_DIAGNOSTICS = 'off';
      const typo = likelySubcommand(words, program.commands.map((command) => command.name()));
      if (typo) {
        io.stderr.write(subcommandTypoMessage(words[0]!, typo));
        exitCode = 2;
        return;
      }
      const cwd = resolve(options.cwd);
      let prompt = words.join(' ').trim();
      if (options.inputFormat === 'stream-json') {
        const { runStreamInputCommand } = await import('./commands/stream-input.js');
        const controller = new AbortController();
        const onSignal = () => controller.abort();
        process.once('SIGINT', onSignal);
        exitCode = await runStreamInputCommand({
          prompt, cwd, ...pick(options), outputFormat: options.outputFormat, sandbox: options.sandbox, ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
          planApprove: options.planApprove, force: options.force, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, color, env: io.env, signal: controller.signal,
        });
        process.off('SIGINT', onSignal);
        return;
      }
      if (!prompt && !io.stdin.isTTY) prompt = await readStdin(io.stdin);
      if (!prompt) {
        const refused = headlessOnlyFlags(options);
        if (refused.length) {
          io.stderr.write(`cairn: ${refused.join(', ')} ${refused.length > 1 ? 'are' : 'is'} for headless runs: pass a prompt (as arguments or on stdin), or leave ${refused.length > 1 ? 'them' : 'it'} out to open the chat.\n`);
          exitCode = 2;
          return;
        }
        const { runChatCommand } = await import('./commands/chat-command.js');
        exitCode = await runChatCommand({ cwd, ...pick(options), sandbox: options.sandbox, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, color, env: io.env });
        return;
      }
      const { runPromptCommand } = await import('./commands/run-command.js');
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      process.once('SIGINT', onSignal);
      exitCode = await runPromptCommand({
        prompt, cwd, ...pick(options), outputFormat: options.outputFormat, sandbox: options.sandbox,
        ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
        planApprove: options.planApprove, force: options.force,
        stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, color, env: io.env, signal: controller.signal,
      });
      process.off('SIGINT', onSignal);
    });

  /** A subcommand's `--cwd`, else the program's (`cairn --cwd DIR index`), else the current folder. */
  const workspaceOf = (options: { cwd?: string }) => resolve(options.cwd ?? (program.opts() as { cwd: string }).cwd);

  program
    .command('agents')
    .description('list stored agents')
    .option('--cwd <dir>', 'only agents of this workspace')
    .option('--limit <n>', 'how many', positiveInteger, 20)
    .option('--json', 'print JSON', false)
    .action(async (options: { cwd?: string; limit: number; json: boolean }) => {
      const { runAgentsCommand } = await import('./commands/catalog-commands.js');
      exitCode = await runAgentsCommand({ stdout: io.stdout, stderr: io.stderr, json: options.json, limit: options.limit, ...(options.cwd ? { cwd: resolve(options.cwd) } : {}) });
    });
  program
    .command('runs <agentId>')
    .description('list the runs of an agent')
    .option('--limit <n>', 'how many', positiveInteger, 20)
    .option('--json', 'print JSON', false)
    .action(async (agentId: string, options: { limit: number; json: boolean }) => {
      const { runRunsCommand } = await import('./commands/catalog-commands.js');
      exitCode = await runRunsCommand(agentId, { stdout: io.stdout, stderr: io.stderr, json: options.json, limit: options.limit });
    });
  program
    .command('models')
    .description('list the models of the configured providers')
    .option('--json', 'print JSON', false)
    .option('--no-servers', 'do not ask OPENAI_BASE_URL / OLLAMA_BASE_URL (or a local Ollama) for the models they serve')
    .action(async (options: { json: boolean; servers: boolean }) => {
      const { runModelsCommand } = await import('./commands/catalog-commands.js');
      exitCode = await runModelsCommand({ stdout: io.stdout, stderr: io.stderr, json: options.json, env: io.env, servers: options.servers });
    });
  program
    .command('cancel <agentId>')
    .description("cancel the agent's running run, in whichever process it runs")
    .option('--timeout <seconds>', 'how long to wait for the run to end', positiveInteger, 30)
    .action(async (agentId: string, options: { timeout: number }) => {
      const { runCancelCommand } = await import('./commands/cancel-command.js');
      exitCode = await runCancelCommand(agentId, { stdout: io.stdout, stderr: io.stderr, timeoutMs: options.timeout * 1000 });
    });
  program
    .command('index')
    .description('build or refresh the codebase index of a workspace')
    .option('--cwd <dir>', 'the workspace folder (default: the program\'s --cwd, else the current folder)')
    .option('--json', 'print the final statistics as JSON', false)
    .option('--embeddings <provider/model>', embeddingsHelp)
    .option('--embeddings-base-url <url>', embeddingsBaseUrlHelp)
    .action(async (options: { cwd?: string; json: boolean } & EmbeddingFlags) => {
      const { runIndexCommand } = await import('./commands/index-command.js');
      const { embeddingModelOrReport } = await import('./commands/embedding-option.js');
      const embeddingModel = await embeddingModelOrReport('index', options, workspaceOf(options), io);
      if (embeddingModel === null) return void (exitCode = 2);
      exitCode = await runIndexCommand({ cwd: workspaceOf(options), json: options.json, stdout: io.stdout, stderr: io.stderr, isTTY: Boolean(io.stderr.isTTY), ...(embeddingModel ? { embeddingModel } : {}) });
    });
  program
    .command('search <query>')
    .description('search the codebase index by meaning and by identifiers')
    .option('--cwd <dir>', 'the workspace folder (default: the program\'s --cwd, else the current folder)')
    .option('--limit <n>', 'how many results', positiveInteger, 10)
    .option('--json', 'print [{ path, startLine, endLine, score, symbol }]', false)
    .option('--embeddings <provider/model>', embeddingsHelp)
    .option('--embeddings-base-url <url>', embeddingsBaseUrlHelp)
    .action(async (query: string, options: { cwd?: string; limit: number; json: boolean } & EmbeddingFlags) => {
      const { runSearchCommand } = await import('./commands/search-command.js');
      const { embeddingModelOrReport } = await import('./commands/embedding-option.js');
      const embeddingModel = await embeddingModelOrReport('search', options, workspaceOf(options), io);
      if (embeddingModel === null) return void (exitCode = 2);
      exitCode = await runSearchCommand(query, { cwd: workspaceOf(options), limit: options.limit, json: options.json, stdout: io.stdout, stderr: io.stderr, ...(embeddingModel ? { embeddingModel } : {}) });
    });

  program
    .command('serve')
    .description('serve agents over HTTP + SSE with a chat page for this folder (docs/server-api.md)')
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--port <n>', 'the port (0 picks a free one)', portNumber, 4780)
    .option('--token <token>', 'the bearer token clients send (default: CAIRN_SERVER_TOKEN, else a random one, printed)')
    .option('--root <dir>', 'a folder agents may work in; repeat for more (default: the current folder)', collect, [])
    .option('--cors-origin <origin>', 'an origin allowed to call the API from a browser; repeat for more (default: none)', collect, [])
    .option('--max-body-bytes <n>', 'the largest request body accepted', positiveInteger)
    .option('--heartbeat-ms <n>', 'how often idle event streams get a ping', positiveInteger)
    .option('--sandbox', "run the agents' shell commands in the OS sandbox", false)
    .option('--open', 'open the chat page in the default browser', false)
    .option('--store <url>', 'keep agents in this PostgreSQL database and queue their runs for `cairn worker` (postgres://…; default: the local SQLite store)', postgresUrl)
    .action(async (options: { host: string; port: number; token?: string; root: string[]; corsOrigin: string[]; maxBodyBytes?: number; heartbeatMs?: number; sandbox: boolean; open: boolean; store?: string }) => {
      const { runServeCommand } = await import('./commands/serve-command.js');
      const stopped = stopSignal();
      exitCode = await runServeCommand({
        ...(options.store ? { store: options.store } : {}),
        host: options.host, port: options.port, ...(options.token ?? io.env.CAIRN_SERVER_TOKEN ? { token: options.token ?? io.env.CAIRN_SERVER_TOKEN } : {}),
        roots: options.root.length ? options.root : [workspaceOf({})], corsOrigins: options.corsOrigin,
        ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}), ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
        sandbox: options.sandbox, open: options.open, stdout: io.stdout, stderr: io.stderr, env: io.env, stopped,
      });
    });

  program
    .command('worker')
    .description('execute background runs queued in a PostgreSQL store, on this machine (docs/background-agents.md)')
    .requiredOption('--store <url>', 'the PostgreSQL database the agents and the queue live in (postgres://…)', postgresUrl)
    .option('--concurrency <n>', 'how many runs at once', positiveInteger, 1)
    .option('--work-dir <dir>', 'where runs on a git repository are cloned (default: a folder under the temp dir)')
    .option('--shutdown-grace-ms <n>', 'on SIGTERM, how long runs in flight may take to finish before they are handed back', positiveInteger)
    .option('--sandbox', "run the agents' shell commands in the OS sandbox", false)
    .action(async (options: { store: string; concurrency: number; workDir?: string; shutdownGraceMs?: number; sandbox: boolean }) => {
      const { runWorkerCommand } = await import('./commands/worker-command.js');
      exitCode = await runWorkerCommand({
        store: options.store, concurrency: options.concurrency, ...(options.workDir ? { workDir: resolve(options.workDir) } : {}),
        ...(options.shutdownGraceMs !== undefined ? { shutdownGraceMs: options.shutdownGraceMs } : {}),
        sandbox: options.sandbox, stdout: io.stdout, stderr: io.stderr, env: io.env, stopped: stopSignal(),
      });
    });

  registerInstallCommands(program, {
    io,
    color: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR,
    workspaceOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  registerMcpCommands(program, {
    io,
    workspaceOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  try {
    await program.parseAsync(io.argv);
  } catch (error) {
    const code = (error as { exitCode?: number; code?: string }).exitCode;
    const done = (error as { code?: string }).code === 'commander.helpDisplayed' || (error as { code?: string }).code === 'commander.version';
    // A bad flag value is a JSON result too when JSON was asked for (commander wrote the message to stderr).
    if (code !== undefined && !done) {
      const { jsonOutputRequested, writeJsonError } = await import('./render/json-lines.js');
      if (jsonOutputRequested(io.argv)) writeJsonError(io.stdout, (error as Error).message, { code: 'usage_error' });
    }
    if (code !== undefined) return (error as { code?: string }).code === 'commander.helpDisplayed' || (error as { code?: string }).code === 'commander.version' ? 0 : 2;
    throw error;
  }
  return exitCode;
}

/** Resolves at the first SIGINT or SIGTERM: long-running commands (serve, worker) stop cleanly on it. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolveStop) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolveStop());
  });
}

function pick(options: { model?: string; mode?: string; resume?: string }) {
  return { ...(options.model ? { model: options.model } : {}), ...(options.mode ? { mode: options.mode } : {}), ...(options.resume ? { resume: options.resume } : {}) };
}

/** Flags the interactive chat has no use for: given without a prompt, they are refused rather than ignored. */
function headlessOnlyFlags(options: { outputFormat: OutputFormat; maxSteps?: number; planApprove: boolean; force: boolean }): string[] {
  return [
    options.outputFormat !== 'text' ? `--output-format ${options.outputFormat}` : '',
    options.maxSteps ? '--max-steps' : '',
    options.planApprove ? '--plan-approve' : '',
    options.force ? '--force' : '',
  ].filter(Boolean);
}
