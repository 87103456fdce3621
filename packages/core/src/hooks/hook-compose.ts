import type { HookOutput } from './hook-answers.js';

/** How strict each decision is: the strictest of all hooks of an event wins. */
const strictness: Record<NonNullable<HookOutput['decision']>, number> = { allow: 1, ask: 2, deny: 3, block: 3 };

/**
 * The answers of every hook of one event as one: the strictest decision (deny/block > ask > allow),
 * the reasons of the hooks that gave it, every additional context, and the last rewritten input
 * (file hooks run first, so a typed callback's rewrite wins). User messages are not combined: they
 * are shown as each hook says them.
 */
export function combineHookOutputs(outputs: readonly HookOutput[]): HookOutput {
  let decision: HookOutput['decision'];
  for (const output of outputs) if (output.decision && (!decision || strictness[output.decision] > strictness[decision])) decision = output.decision;
  const reasons = decision ? outputs.filter((output) => output.decision && strictness[output.decision] === strictness[decision]).map((output) => output.reason).filter(isText) : [];
  const contexts = outputs.map((output) => output.additionalContext).filter(isText);
  const updatedInput = outputs.reduce<HookOutput['updatedInput']>((last, output) => output.updatedInput ?? last, undefined);
  return {
    ...(decision ? { decision } : {}),
    ...(reasons.length ? { reason: reasons.join('\n') } : {}),
    ...(contexts.length ? { additionalContext: contexts.join('\n\n') } : {}),
    ...(updatedInput ? { updatedInput } : {}),
  };
}

function isText(value: string | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
