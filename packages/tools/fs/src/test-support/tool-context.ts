import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FileChange, isJsonSchemaInput, type ToolDefinition, type ToolExecutionContext, type ToolResult, type ToolResultContent } from '@cairn/core';
import { canonicalWorkspaceRoot } from '@cairn/core/node';
import { Validator } from '@cfworker/json-schema';
import { onTestFinished } from 'vitest';

/** A temp folder holding the workspace `proj` and its evil sibling `proj-evil` (same name prefix). */
export async function createWorkspace(): Promise<{ base: string; root: string; outside: string }> {
  const base = await canonicalWorkspaceRoot(await mkdtemp(join(tmpdir(), 'cairn-fs-')));
  const root = join(base, 'proj');
  const outside = join(base, 'proj-evil');
  await mkdir(root);
  await mkdir(outside);
  // Tests write real files (up to tens of MB): remove them when the test ends.
  onTestFinished(() => rm(base, { recursive: true, force: true }));
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  return { base, root, outside };
}

export interface TestToolContext {
  context: ToolExecutionContext;
  changes: FileChange[];
  state: Map<string, unknown>;
}

/** A real ToolExecutionContext for tests: in-memory state, recorded changes, optional deny rule. */
export function createTestToolContext(
  cwd: string,
  overrides: Partial<ToolExecutionContext> & { deny?: (absolutePath: string, toolId: string) => boolean } = {},
): TestToolContext {
  const state = new Map<string, unknown>();
  const changes: FileChange[] = [];
  const { deny, ...rest } = overrides;
  const context: ToolExecutionContext = {
    toolCallId: 'call-1',
    agentId: 'agent-1',
    runId: 'run-1',
    cwd,
    mode: 'agent',
    signal: new AbortController().signal,
    emit: () => undefined,
    state: { get: <T>(key: string) => state.get(key) as T | undefined, set: (key, value) => void state.set(key, value) },
    recordFileChange: async (change) => {
      changes.push(change);
    },
    sandbox: { profile: 'none', networkAllow: [], required: false },
    isPathDenied: (absolutePath, toolId) => deny?.(absolutePath, toolId) ?? false,
    settings: {},
    env: {},
    ...rest,
  };
  return { context, changes, state };
}

/**
 * Run a tool the way the runtime does: validate the input against its JSON Schema first, with the
 * validator and draft core uses, and pass the input on as it is.
 */
export async function run<Input>(tool: ToolDefinition<Input>, input: unknown, context: ToolExecutionContext): Promise<ToolResult> {
  if (!isJsonSchemaInput(tool.inputSchema)) throw new Error(`${tool.name} has no JSON Schema input; the built-in tools declare theirs as { jsonSchema }.`);
  const result = new Validator(tool.inputSchema.jsonSchema as ConstructorParameters<typeof Validator>[0], '2020-12', false).validate(input);
  if (!result.valid) throw new Error(`invalid input: ${result.errors.map((error) => `${error.instanceLocation}: ${error.error}`).join('; ')}`);
  return tool.execute(input as Input, context);
}

/** The text of a result, whether a plain string or `{ content }`. */
export function textOf(result: ToolResult): string {
  if (typeof result === 'string') return result;
  if (result && typeof result === 'object' && 'content' in result && Array.isArray(result.content)) {
    return (result as ToolResultContent).content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
  }
  return JSON.stringify(result);
}
