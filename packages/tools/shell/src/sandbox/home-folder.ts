import { readdir, readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Top-level folders of a home folder that stay read-only even though they are not dot folders:
 * `~/bin` is on PATH in the default profiles of most distributions.
 */
const homeCodeFolders = new Set(['bin']);

async function canonical(path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  return realpath(path).catch(() => undefined);
}

/** The home folders of this machine: ours, the command's HOME, and every account's in /etc/passwd. */
async function homeFolders(env: Record<string, string | undefined>): Promise<Set<string>> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const candidates = [homedir(), env.HOME, process.env.HOME, ...passwd.split('\n').map((line) => line.split(':')[5])];
  const homes = await Promise.all(candidates.map(canonical));
  return new Set(homes.filter((home): home is string => home !== undefined));
}

export async function isHomeFolder(root: string, env: Record<string, string | undefined>): Promise<boolean> {
  return (await homeFolders(env)).has(root);
}

/**
 * A workspace that is a home folder: its top level is where the shell start-up files, `.ssh`,
 * `.config`, `.gitconfig` and `~/bin` live, existing or not, so the top level and every dot folder
 * stay read-only (as $HOME always is in the sandbox) and only the other folders in it are
 * writable. Nothing can be created at the top level, so no placeholder is needed there.
 */
export async function homeFolderMounts(root: string): Promise<{ args: string[]; areas: string[] }> {
  const args = ['--ro-bind', root, root];
  const areas: string[] = [];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || homeCodeFolders.has(entry.name)) continue;
    const folder = join(root, entry.name);
    args.push('--bind', folder, folder);
    areas.push(folder);
  }
  return { args, areas };
}
