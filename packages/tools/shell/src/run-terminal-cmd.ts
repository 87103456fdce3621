import { stat } from 'node:fs/promises';
import { defineTool, type ToolDefinition, ToolError, type ToolExecutionContext, type ToolResultContent } from '@cairn/core';
import { agentHomes, agentSettingsLocations, resolveWorkspacePath } from '@cairn/core/node';
import type { FromSchema } from 'json-schema-to-ts';
import { readDeniedPaths } from './denied-paths.js';
import { commandEnvironment } from './environment.js';
import { listBackgroundProcesses, startBackgroundProcess } from './process/background-processes.js';
import { shellLogDirectory } from './process/log-directory.js';
import { type ProcessResult, runProcess } from './process/run-process.js';
import { defaultSandboxBackend } from './sandbox/default-backend.js';
import type { SandboxBackend } from './sandbox/sandbox-backend.js';
import { prepareLaunch } from './sandbox/sandboxed-launch.js';
import { environmentPolicy, findDefaultShell, readShellSettings, shellDefaults } from './shell-settings.js';
import { watchWorkspace } from './workspace-watch.js';

// Keys in the order zod used to emit them (with its MAX_SAFE_INTEGER bound on integers): the JSON
// providers see, and their prompt caches, stay the same.
export const shellInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The command line to run with bash -c. Chains, pipes and redirections work.' },
      cwd: { description: 'Working directory relative to the workspace root (default: the root).', type: 'string' },
      timeout_ms: {
        description: 'Kill the command after this many milliseconds (default 120000, at most 600000).',
        type: 'integer',
        exclusiveMinimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      },
      is_background: {
        description: 'Start a long-running command (dev server, watcher) and return at once with a log file to read later with cat or tail.',
        type: 'boolean',
      },
    },
    required: ['command'],
  },
} as const;

export type ShellInput = FromSchema<typeof shellInputSchema.jsonSchema>;

export interface ShellToolOptions {
  /** The OS sandbox used when `context.sandbox.profile` is not `none`; default: bubblewrap on Linux. */
  sandboxBackend?: SandboxBackend;
}

const description = `Run a shell command in the workspace (bash -c) and return its exit code and output.
- The command runs in its own process group and PID namespace; it is killed on timeout (default 2 minutes, max 10) or cancel, and nothing it starts (setsid, nohup, disown included) outlives it or the run.
- It gets a minimal environment (PATH, HOME, locale, ...), not the agent's; files the permission rules hide stay unreadable to it.
- Long output keeps the first 8 KiB and last 24 KiB; the full output is saved to a file named in the result (read it with head/tail/grep).
- stdin is closed: pass flags like --yes / --no-pager / CI=1 to avoid prompts.
- For servers and watchers set is_background: true; you get a log file to read later with \`tail -n 50 <file>\`. Background commands stop when the run ends.
- When a sandbox is active, writes outside the workspace and temp dirs fail and the network is off; say so rather than working around it.`;

async function resolveCwd(context: ToolExecutionContext, requested: string | undefined): Promise<string> {
  const resolved = await resolveWorkspacePath(context.cwd, requested ?? '', { allowRoot: true });
  let isDirectory = false;
  try {
    isDirectory = (await stat(resolved.absolute)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new ToolError(`cwd ${requested} is not a directory in the workspace. Use an existing folder, relative to the workspace root.`);
  return resolved.absolute;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The command was cancelled.', 'AbortError');
}

function describeExit(result: ProcessResult, timeoutMs: number): string {
  if (result.timedOut) return `Command timed out after ${timeoutMs} ms; its whole process group was killed.`;
  if (result.exitCode !== null) return `Exit code: ${result.exitCode}`;
  return `Killed by signal ${result.signal}`;
}

export function createShellTool(options: ShellToolOptions = {}): ToolDefinition<ShellInput> {
  const backend = () => options.sandboxBackend ?? defaultSandboxBackend();

  return defineTool<ShellInput>({
    id: 'shell',
    name: 'run_terminal_cmd',
    description,
    inputSchema: shellInputSchema,
    readOnly: false,
    category: 'shell',
    // The tool enforces timeout_ms itself; the runtime's limit is only a backstop above the maximum.
    timeoutMs: shellDefaults.maxTimeoutMs + 30_000,
    ruleSubject: (input) => input.command,
    async execute(input, context) {
      const settings = readShellSettings(context.settings);
      const maxTimeout = settings.maxTimeoutMs ?? shellDefaults.maxTimeoutMs;
      const timeoutMs = Math.min(input.timeout_ms ?? settings.defaultTimeoutMs ?? shellDefaults.defaultTimeoutMs, maxTimeout);
      const killGraceMs = settings.killGraceMs ?? shellDefaults.killGraceMs;
      const cwd = await resolveCwd(context, input.cwd);
      const shell = settings.shell ?? (await findDefaultShell());
      // An empty context.env (a hand-built context) would leave the command without PATH.
      const baseEnvironment = context.env && Object.keys(context.env).length > 0 ? context.env : process.env;
      const env = commandEnvironment(baseEnvironment, environmentPolicy(settings));
      if (context.signal.aborted) throw abortError(context.signal);

      // Background commands wait for their own `&` jobs, so `npm run dev &` keeps running.
      const script = input.is_background ? `${input.command}\nwait` : input.command;
      const requirement = context.sandbox ?? { profile: 'none', networkAllow: [], required: false };
      // Walked before and after: sensitive files the command changes are flagged, repositories it creates quarantined.
      const watch = await watchWorkspace(context);
      const prepared = await prepareLaunch(script, {
        workspaceScan: watch.scan,
        requirement, backend: backend(), workspaceRoot: context.cwd, cwd, shell, env, readOnlyPaths: [shellLogDirectory()], label: 'The shell',
        maskedPaths: await readDeniedPaths(context),
        protectedPaths: agentSettingsLocations(agentHomes(baseEnvironment)),
        ...(settings.processIsolation ? { processIsolation: settings.processIsolation } : {}),
      });
      const { launch, warning: sandboxNote } = prepared;
      const sandboxName = prepared.sandbox;

      if (input.is_background) {
        const maxBackground = settings.maxBackground ?? shellDefaults.maxBackground;
        if (listBackgroundProcesses().length >= maxBackground) {
          await launch.cleanup();
          throw new ToolError(`${maxBackground} background commands are already running. Wait for one to finish or run this one in the foreground.`);
        }
        const started = await startBackgroundProcess({ ...launch, cwd, command: input.command, runId: context.runId, signal: context.signal, killGraceMs, onDone: async () => {
          await launch.cleanup();
          await watch.finish(launch);
        } }).catch(async (error: unknown) => {
          await launch.cleanup();
          throw error;
        });
        const text = [
          `Started in the background (id ${started.backgroundId}). Output goes to ${started.logFile}.`,
          `Read it with \`tail -n 50 ${started.logFile}\`. It stops when the run ends or is cancelled.`,
          sandboxNote,
        ].filter(Boolean).join('\n');
        return {
          content: [{ type: 'text', text }],
          structuredContent: { backgroundId: started.backgroundId, logFile: started.logFile, sandbox: sandboxName, isolation: prepared.isolation, cwd },
        } satisfies ToolResultContent;
      }

      let result: ProcessResult;
      try {
        result = await runProcess({
          ...launch,
          cwd,
          timeoutMs,
          signal: context.signal,
          killGraceMs,
          headBytes: settings.headBytes ?? shellDefaults.headBytes,
          tailBytes: settings.tailBytes ?? shellDefaults.tailBytes,
          streamBytes: settings.streamBytes ?? shellDefaults.streamBytes,
          name: `call-${context.toolCallId.replace(/[^A-Za-z0-9_-]/g, '_')}-${Date.now()}`,
          onOutput: (stream, text) => context.emit({ type: 'shell-output-delta', event: { callId: context.toolCallId, stream, text } }),
        });
      } finally {
        await launch.cleanup();
      }
      const watchNotes = await watch.finish(launch);
      if (result.cancelled) throw abortError(context.signal);

      const { output } = result;
      const lines = [output.text.length > 0 ? output.text.replace(/\n$/, '') : '(no output)', '', describeExit(result, timeoutMs)];
      if (output.truncated) lines.push(`Output was ${output.totalBytes} bytes; only the start and the end are shown. Full output: ${output.spillFile ?? '(could not be saved)'}`);
      if (sandboxNote) lines.push(sandboxNote);
      lines.push(...watchNotes);
      const structuredContent = {
        exitCode: result.exitCode,
        signal: result.signal,
        durationMs: result.durationMs,
        timedOut: result.timedOut,
        truncated: output.truncated,
        totalBytes: output.totalBytes,
        outputFile: output.spillFile ?? null,
        output: output.text,
        sandbox: sandboxName,
        isolation: prepared.isolation,
        cwd,
      };
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent, truncated: output.truncated, isError: result.timedOut } satisfies ToolResultContent;
    },
  });
}

/** `run_terminal_cmd` with the platform's default sandbox backend. */
export const runTerminalCmdTool = createShellTool();
