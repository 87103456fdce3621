import { defineTool, lazyImplementation, type ToolDefinition } from '@cairn/core';
import type { SandboxBackend } from '@cairn/tools-shell';
import type { FromSchema } from 'json-schema-to-ts';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const readLintsInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      paths: {
        description: 'Files or folders to report on, relative to the workspace root. Leave out for the whole workspace.',
        type: 'array',
        items: { type: 'string', minLength: 1 },
      },
    },
  },
} as const;

export type ReadLintsInput = FromSchema<typeof readLintsInputSchema.jsonSchema>;

export interface ReadLintsToolOptions {
  /** The OS sandbox linters run in when `context.sandbox.profile` is not `none`; default: the shell's (bubblewrap on Linux). */
  sandboxBackend?: SandboxBackend;
}

// The linter runners (and the shell's launcher they start through) load at the first call.
const implementation = lazyImplementation(() => import('./read-lints-execute.js'));

/**
 * `read_lints`. The linters are programs of the workspace, so they run like a shell command would:
 * only when the shell may run that command, and in the call's sandbox (see run-linter.ts).
 */
export function createReadLintsTool(options: ReadLintsToolOptions = {}): ToolDefinition<ReadLintsInput> {
  return defineTool<ReadLintsInput>({
    id: 'lints',
    name: 'read_lints',
    description: [
      "Read diagnostics (type errors, lint errors and warnings) from the workspace's own TypeScript compiler and ESLint.",
      'Call it after editing files to check that you introduced no errors. Pass the files you changed, or no paths for the whole workspace.',
      'The linters run like shell commands: where the shell may not run them, they are reported as not run.',
    ].join(' '),
    inputSchema: readLintsInputSchema,
    readOnly: true,
    category: 'lints',
    timeoutMs: 300_000,
    paths: (input) => input.paths ?? [],
    async execute(input, context) {
      return (await implementation()).executeReadLints(input, context, options.sandboxBackend);
    },
  });
}

export const readLintsTool: ToolDefinition<ReadLintsInput> = createReadLintsTool();
