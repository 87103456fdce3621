import { readFile } from 'node:fs/promises';

/** The pids the fixture server wrote to its `--started` file, one per start. */
export const pids = async (file: string): Promise<number[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
