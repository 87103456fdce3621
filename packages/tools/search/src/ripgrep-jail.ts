import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** How to start rg so that it sees only the workspace: a program and the arguments before rg's own. */
export interface RipgrepJail {
  file: string;
  prefix(root: string): string[];
}

// Library folders for an rg that is not statically linked (the bundled one is); they hold no
// user files. Nothing else of the host is visible: no home, no /tmp, no /proc.
const libraryFolders = ['/lib', '/lib64', '/usr/lib', '/usr/lib64'];

function jailArguments(rgPath: string, root: string | undefined): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const folder of libraryFolders) args.push('--ro-bind-try', folder, folder);
  if (root) args.push('--ro-bind', root, root);
  args.push('--ro-bind', rgPath, rgPath);
  if (root) args.push('--chdir', root);
  return [...args, '--'];
}

async function findBubblewrap(): Promise<string | undefined> {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((folder) => join(folder, 'bwrap')), '/usr/bin/bwrap'];
  for (const candidate of candidates) {
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
}

const probes = new Map<string, Promise<RipgrepJail | undefined>>();

/**
 * rg walks the tree by path: a folder swapped for a symlink between its readdir and its open makes
 * it read outside files. Run inside bubblewrap with only the workspace (read-only) and rg itself
 * mounted, whatever it opens can only be a workspace file: a link to outside leads nowhere. Probed
 * once per rg binary by running it (namespaces may be disabled); undefined when it cannot run, and
 * the grep tool then uses its built-in engine, which reads through confined folder handles.
 */
export function ripgrepJail(rgPath: string): Promise<RipgrepJail | undefined> {
  let probe = probes.get(rgPath);
  if (!probe) {
    probe = (async () => {
      if (process.platform !== 'linux') return undefined;
      const bwrap = await findBubblewrap();
      if (!bwrap) return undefined;
      const works = await new Promise<boolean>((resolve) => {
        execFile(bwrap, [...jailArguments(rgPath, undefined), rgPath, '--version'], { timeout: 10_000, env: {} }, (error) => resolve(!error));
      });
      return works ? { file: bwrap, prefix: (root: string) => [...jailArguments(rgPath, root), rgPath] } : undefined;
    })();
    probes.set(rgPath, probe);
  }
  return probe;
}
