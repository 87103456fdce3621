import type { ModeDefinition } from '@cairn/core';
import { debugInstrumentationMarker, debugReminder } from './debug-reminder.js';

// Mode texts reach the model in a <system_reminder> when the mode starts, never in the system
// prompt, so switching modes keeps the cached prompt prefix. The tool policy is what enforces a
// mode; the texts only explain it.

export const agentMode: ModeDefinition = {
  id: 'agent',
  description: 'Implement, refactor and fix: every tool the permissions and sandbox settings allow.',
  promptBlocks: [
    'Carry the task through to the end: understand the code, make the changes, verify them (tests, type checker, build), and summarise what you did. Ask the user only about decisions you cannot make from the code.',
  ],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host', deny: ['plan'] },
  sandboxProfile: 'inherit',
  transitionsTo: ['plan', 'ask', 'debug'],
  subagentMode: 'agent',
};

export const planMode: ModeDefinition = {
  id: 'plan',
  description: 'Research the codebase, ask clarifying questions, then propose a plan with create_plan. Nothing is changed in this mode.',
  promptBlocks: [
    'This mode is read-only: file edits are refused, and the shell runs only read-only commands (ls, cat, grep, git status/log/diff, ...) inside a read-only sandbox. Do not try to work around it.',
    [
      'How to plan:',
      '1. Research first. Find and read the code the request touches, how similar things are done today, and the tests. Use parallel searches and reads.',
      '2. If the request is ambiguous or a real choice depends on the user (scope, behaviour, trade-offs), ask one to three short, concrete questions (offer options where you can) and end your turn. Do not ask what the code can tell you.',
      '3. When you know enough, call create_plan once: a short name; an overview of one or two sentences; a markdown plan with the approach, the files to change (with paths) and what changes in each, risks and open points, and how to verify (tests, commands); and todos that are concrete, verifiable steps with ids and dependencies.',
      '4. After create_plan, end your turn with a two or three line summary. The user reviews the plan; it is executed in agent mode once they approve it. If they ask for changes, revise and call create_plan again.',
    ].join('\n'),
  ],
  toolPolicy: { readOnly: true, allow: ['plan', 'todo', 'switchMode'], mcp: 'readOnlyHint', shell: 'sandbox-read-only' },
  sandboxProfile: 'read-only',
  transitionsTo: [{ mode: 'agent', requiresApproval: true }, 'ask'],
  subagentMode: 'ask',
};

export const askMode: ModeDefinition = {
  id: 'ask',
  description: 'Answer questions about the code: read, search and explain. Nothing is changed in this mode.',
  promptBlocks: [
    'This mode is read-only: file edits are refused, and the shell runs only read-only commands inside a read-only sandbox.',
    'Answer from the code itself: search and read the relevant files (in parallel), then explain clearly and concretely. Cite the code you rely on as startLine:endLine:path blocks. Say what you could not verify.',
    'If the user asks for a change, explain what you would change and where, and suggest switching to agent mode (or plan mode for a larger change); do not attempt the change.',
  ],
  toolPolicy: { readOnly: true, allow: ['todo', 'switchMode'], deny: ['plan'], mcp: 'readOnlyHint', shell: 'sandbox-read-only' },
  sandboxProfile: 'read-only',
  transitionsTo: ['agent', 'plan'],
  subagentMode: 'ask',
};

export const debugMode: ModeDefinition = {
  id: 'debug',
  description: 'Hypothesis-driven debugging: hypotheses, instrumentation, reproduction, fix, cleanup.',
  promptBlocks: [
    [
      'Debug systematically; do not guess at fixes:',
      '1. Reproduce: find or write the smallest command that shows the problem (a failing test, a script) and run it with the shell. Note the exact output.',
      '2. Hypothesise: list two to five possible causes, most likely first, each with what would confirm or rule it out.',
      `3. Instrument: add targeted logging where it separates the hypotheses. End every added line with a comment containing ${debugInstrumentationMarker} (e.g. \`console.error('x=', x); // ${debugInstrumentationMarker}\`) so it can be found and removed.`,
      '4. Run the reproduction again and read the output. Rule hypotheses out one by one; add more instrumentation if none is confirmed.',
      '5. Fix the root cause, not the symptom. Run the reproduction and the related tests to confirm the fix.',
      `6. Clean up: remove every line marked ${debugInstrumentationMarker} (check with grep), run the tests once more, and report the cause, the fix and how you verified it.`,
    ].join('\n'),
  ],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host', deny: ['plan'] },
  reminder: debugReminder,
  sandboxProfile: 'inherit',
  transitionsTo: ['agent', 'plan', 'ask'],
  subagentMode: 'ask',
};

export const builtInModes: ModeDefinition[] = [agentMode, planMode, askMode, debugMode];
