import { defineTool, lazyImplementation, type ToolDefinition } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import type { SandboxBackend } from './sandbox/sandbox-backend.js';
import { shellDefaults } from './shell-settings.js';

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

// Everything a call needs (process spawning, the sandbox, the workspace walk) loads at the first call.
const implementation = lazyImplementation(() => import('./run-terminal-cmd-execute.js'));

export function createShellTool(options: ShellToolOptions = {}): ToolDefinition<ShellInput> {
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
      return (await implementation()).executeShellCommand(input, context, options.sandboxBackend);
    },
  });
}

/** `run_terminal_cmd` with the platform's default sandbox backend. */
export const runTerminalCmdTool = createShellTool();
