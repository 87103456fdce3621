import type { ModeReminderContext } from '@cairn/core';

/** The marker debug mode asks the model to put on every line of instrumentation it adds. */
export const debugInstrumentationMarker = 'CAIRN-DEBUG';

/** Files changed in this run that still contain instrumentation, with the number of marked lines. */
export function remainingInstrumentation(context: Pick<ModeReminderContext, 'editedFiles'>, marker = debugInstrumentationMarker): Array<{ path: string; lines: number }> {
  const remaining: Array<{ path: string; lines: number }> = [];
  for (const file of context.editedFiles ?? []) {
    if (!file.text?.includes(marker)) continue;
    remaining.push({ path: file.path, lines: file.text.split('\n').filter((line) => line.includes(marker)).length });
  }
  return remaining;
}

/**
 * Debug mode's per-step reminder: only while a file this run edited still holds `CAIRN-DEBUG`
 * lines, so it nags exactly until the cleanup is done and never after.
 */
export function debugReminder(context: ModeReminderContext): string | undefined {
  const remaining = remainingInstrumentation(context);
  if (remaining.length === 0) return undefined;
  const list = remaining.map((file) => `${file.path} (${file.lines} line${file.lines === 1 ? '' : 's'})`).join(', ');
  return `Debug instrumentation marked ${debugInstrumentationMarker} is still in: ${list}. Keep it while you are still testing hypotheses; once the cause is fixed and the reproduction passes, remove every marked line and check with grep for ${debugInstrumentationMarker} before you finish.`;
}
