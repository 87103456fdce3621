import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

const installHint = 'install bubblewrap: apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap (Fedora)';

/**
 * Is the shell sandbox (`--sandbox`, always on in plan and ask modes) usable? bubblewrap must be on
 * PATH and able to create namespaces here (containers or kernel settings can forbid it), so run it once
 * with the same namespaces the shell tool asks for.
 */
export async function sandboxCheck(env: Record<string, string | undefined>, platform = process.platform): Promise<DoctorCheck> {
  if (platform !== 'linux') return warn('sandbox', `no sandbox backend for ${platform} yet`, 'shell commands run unsandboxed; plan and ask modes cannot run the shell');
  const bwrap = await findOnPath('bwrap', env.PATH);
  if (!bwrap) return fail('sandbox', 'bwrap was not found on PATH', installHint);
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-net', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/sh', '-c', 'true'];
  const problem = await new Promise<string | undefined>((resolve) => {
    execFile(bwrap, args, { timeout: 10_000 }, (error, _stdout, stderr) => resolve(error ? (stderr || error.message).trim() : undefined));
  });
  if (problem) return fail('sandbox', `${bwrap} cannot create namespaces here: ${problem}`, 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run where they are allowed');
  return ok('sandbox', `bubblewrap works (${bwrap})`);
}

async function findOnPath(name: string, path: string | undefined): Promise<string | undefined> {
  for (const folder of (path ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(folder, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
}
