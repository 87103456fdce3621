import type { ModeDefinition } from '@cairn/core';

// Read-only modes offer the planning tools on top of the read-only tools, and the shell only
// inside a read-only OS sandbox.
const readOnlyShell = 'sandbox-read-only' as const;

export const agentMode: ModeDefinition = {
  id: 'agent',
  description: 'Implement, refactor and fix: every tool the permissions and sandbox settings allow.',
  promptBlocks: [],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host', deny: ['plan'] },
  sandboxProfile: 'inherit',
  transitionsTo: ['plan', 'ask', 'debug'],
  subagentMode: 'agent',
};

export const planMode: ModeDefinition = {
  id: 'plan',
  description: 'Research the codebase, ask clarifying questions, then propose a plan with create_plan. Nothing is changed in this mode.',
  promptBlocks: [
    'Do not change any file and do not run commands that change anything: this mode is read-only, and write tools are refused.',
    'First research: read the relevant code, search for how things are done today. If the request is ambiguous, ask the user one to three precise questions and stop.',
    'Then call create_plan once with a short name, an overview, a markdown plan (files to change, the approach, risks, how to verify) and todos with ids and dependencies. The user approves the plan before anything is executed.',
  ],
  toolPolicy: { readOnly: true, allow: ['plan', 'todo', 'switchMode'], mcp: 'readOnlyHint', shell: readOnlyShell },
  sandboxProfile: 'read-only',
  transitionsTo: [{ mode: 'agent', requiresApproval: true }, 'ask'],
  subagentMode: 'ask',
};

export const askMode: ModeDefinition = {
  id: 'ask',
  description: 'Answer questions about the code: read, search and explain. Nothing is changed in this mode.',
  promptBlocks: [
    'Answer the question from the code itself: find and read the relevant files, then explain clearly, citing code as startLine:endLine:path blocks.',
    'Do not change any file: this mode is read-only, and write tools are refused. If the user asks for a change, explain what you would change and suggest switching to agent mode.',
  ],
  toolPolicy: { readOnly: true, allow: ['todo'], deny: ['plan'], mcp: 'readOnlyHint', shell: readOnlyShell },
  sandboxProfile: 'read-only',
  transitionsTo: ['agent', 'plan'],
  subagentMode: 'ask',
};

export const debugMode: ModeDefinition = {
  id: 'debug',
  description: 'Hypothesis-driven debugging: hypotheses, instrumentation, reproduction, fix, cleanup.',
  promptBlocks: [
    'Work like a careful debugger:',
    '1. List two to five hypotheses for the cause, most likely first.',
    '2. Add targeted log instrumentation to test them (mark each added line with a comment containing CAIRN-DEBUG).',
    '3. Reproduce the problem with the shell and read the output.',
    '4. Narrow down to the cause, fix it, and reproduce again to confirm the fix.',
    '5. Remove every line of instrumentation you added (search for CAIRN-DEBUG) before you finish.',
  ],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host', deny: ['plan'] },
  reminder: 'Debug mode: before you finish, remove all instrumentation you added (search the workspace for CAIRN-DEBUG) and say that you did.',
  sandboxProfile: 'inherit',
  transitionsTo: ['agent', 'plan', 'ask'],
  subagentMode: 'ask',
};

export const builtInModes: ModeDefinition[] = [agentMode, planMode, askMode, debugMode];
