import { realpath } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import { ApiError } from './api-error.js';

/**
 * The folders agents of this server may work in, by their real paths: a symlink pointing out of a
 * root is outside it. Agents record the real path of their workspace, so a stored agent is checked
 * with `contains` alone.
 */
export class AllowedRoots {
  private constructor(readonly paths: string[]) {}

  static async of(folders: string[]): Promise<AllowedRoots> {
    const paths = await Promise.all(
      folders.map(async (folder) => {
        if (!isAbsolute(folder)) throw new Error(`A server root must be an absolute path, got "${folder}".`);
        try {
          return await realpath(folder);
        } catch {
          throw new Error(`The server root ${folder} does not exist: create it or pass another --root.`);
        }
      }),
    );
    return new AllowedRoots(paths);
  }

  contains(path: string): boolean {
    return this.paths.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
  }

  /** The real path of a workspace a client asks for, refused unless it exists inside a root. */
  async workspace(cwd: string): Promise<string> {
    if (!isAbsolute(cwd)) throw new ApiError(400, 'invalid_request', `local.cwd must be an absolute path, got "${cwd}".`);
    let real: string;
    try {
      real = await realpath(cwd);
    } catch {
      throw new ApiError(400, 'invalid_request', `local.cwd ${cwd} does not exist on the server.`);
    }
    if (!this.contains(real)) throw new ApiError(403, 'outside_roots', `${cwd} is outside the folders this server may use (${this.paths.join(', ')}); start cairn serve with --root for it.`);
    return real;
  }
}
