export { processesWith } from '../../../scripts/testing/processes.js';

/** The `sleep N` processes themselves (not the shell or bwrap whose command line contains the text). */
export function sleeps(found: string[]): string[] {
  return found.filter((line) => /^\d+: sleep \d+\.\d+$/.test(line));
}

/** Poll `check` every 50 ms until `done` accepts its value or the deadline passes; the last value either way. */
export async function waitFor<T>(check: () => Promise<T>, done: (value: T) => boolean, deadlineMs: number): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
