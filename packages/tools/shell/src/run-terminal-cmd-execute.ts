import { stat } from 'node:fs/promises';
import { ToolError, type ToolExecutionContext, type ToolResult, type ToolResultContent } from '@cairn/core';
import { agentHomes, agentSettingsLocations, resolveWorkspacePath } from '@cairn/core/node';
import { readDeniedPaths } from './denied-paths.js';
import { commandEnvironment } from './environment.js';
import { listBackgroundProcesses, startBackgroundProcess } from './process/background-processes.js';
import { shellLogDirectory } from './process/log-directory.js';
import { type ProcessResult, runProcess } from './process/run-process.js';
import type { ShellInput } from './run-terminal-cmd.js';
import { defaultSandboxBackend } from './sandbox/default-backend.js';
import type { SandboxBackend } from './sandbox/sandbox-backend.js';
import { prepareLaunch } from './sandbox/sandboxed-launch.js';
import { environmentPolicy, findDefaultShell, readShellSettings, shellDefaults } from './shell-settings.js';
import { watchWorkspace } from './workspace-watch.js';

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

/**
 * run_terminal_cmd's call, loaded at the first one (see run-terminal-cmd.ts for the tool).
 * `sandboxBackend`: the tool's own, else the platform's default.
 */
export async function executeShellCommand(input: ShellInput, context: ToolExecutionContext, sandboxBackend: SandboxBackend | undefined): Promise<ToolResult> {
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
    requirement, backend: sandboxBackend ?? defaultSandboxBackend(), workspaceRoot: context.cwd, cwd, shell, env, readOnlyPaths: [shellLogDirectory()], label: 'The shell',
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
}
