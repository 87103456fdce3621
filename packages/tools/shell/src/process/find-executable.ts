import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** The first executable `name` on `searchPath`, then in /usr/bin and /bin. */
export async function findExecutable(name: string, searchPath: string | undefined): Promise<string | undefined> {
  const candidates = [...(searchPath ?? '').split(delimiter).filter(Boolean).map((directory) => join(directory, name)), `/usr/bin/${name}`, `/bin/${name}`];
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}
