import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ConfigurationError } from '@cairn/core';
import { protectedMounts } from './protected-mounts.js';
import type { SandboxBackend, SandboxedCommand, SandboxWrapOptions } from './sandbox-backend.js';

export const bubblewrapInstallHint = 'install bubblewrap: apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap (Fedora)';

async function findExecutable(name: string, searchPath: string | undefined): Promise<string | undefined> {
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

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export interface BubblewrapOptions {
  /** Path of the bwrap binary; default: found on PATH. */
  executable?: string;
}

/**
 * Linux sandbox on bubblewrap. Every profile: a read-only view of the host root, fresh /dev and
 * /proc in a new PID namespace (host processes invisible), private tmpfs temp dirs, no network
 * namespace peers (`--unshare-net`), all capabilities dropped (bwrap keeps them for root
 * otherwise, and a root sandbox could remount / read-write), a new session (no TIOCSTI into our
 * terminal), and `--die-with-parent`. bwrap itself sets NoNewPrivs.
 */
export function createBubblewrapBackend(options: BubblewrapOptions = {}): SandboxBackend {
  let availability: Promise<{ available: boolean; reason?: string; executable?: string }> | undefined;

  const probe = async (): Promise<{ available: boolean; reason?: string; executable?: string }> => {
    if (process.platform !== 'linux') return { available: false, reason: `bubblewrap only runs on Linux (this is ${process.platform})` };
    let executable = options.executable ?? (await findExecutable('bwrap', process.env.PATH));
    if (executable && options.executable) executable = await access(executable, constants.X_OK).then(() => executable, () => undefined);
    if (!executable) return { available: false, reason: `bwrap was not found; ${bubblewrapInstallHint}` };
    // Namespaces can be disabled (containers, kernel.unprivileged_userns_clone=0): try one for real.
    const args = ['--die-with-parent', '--unshare-pid', '--unshare-net', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/sh', '-c', 'true'];
    return new Promise((resolve) => {
      execFile(executable, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
        if (error) resolve({ available: false, reason: `bwrap cannot create namespaces here: ${(stderr || error.message).trim()}` });
        else resolve({ available: true, executable });
      });
    });
  };

  return {
    name: 'bubblewrap',
    async isAvailable() {
      availability ??= probe();
      const { available, reason } = await availability;
      return reason === undefined ? { available } : { available, reason };
    },
    async wrap(command: string, wrapOptions: SandboxWrapOptions): Promise<SandboxedCommand> {
      availability ??= probe();
      const { available, reason, executable } = await availability;
      if (!available || !executable) throw new ConfigurationError(`The ${wrapOptions.profile} sandbox is unavailable: ${reason}`);
      if (wrapOptions.networkAllow.length > 0) {
        throw new ConfigurationError(
          `Sandbox network allow-lists (${wrapOptions.networkAllow.join(', ')}) are not implemented yet: the sandbox would have to open the network. Remove sandboxOptions.network.allow (network stays off) or disable the sandbox explicitly.`,
        );
      }
      const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net', '--cap-drop', 'ALL'];
      args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
      // Private temp dirs: the host's /tmp holds other programs' sockets (tmux, ssh-agent) that would be a way out.
      const temporaryDirectories = new Set(['/tmp', '/var/tmp', '/dev/shm', tmpdir()]);
      for (const directory of temporaryDirectories) if (await isDirectory(directory)) args.push('--tmpfs', directory);
      for (const path of wrapOptions.readOnlyPaths ?? []) if (await isDirectory(path)) args.push('--ro-bind', path, path);
      let release = async () => {};
      if (wrapOptions.profile === 'workspace-write') {
        args.push('--bind', wrapOptions.workspaceRoot, wrapOptions.workspaceRoot);
        const mounts = await protectedMounts(wrapOptions.workspaceRoot);
        args.push(...mounts.args);
        release = mounts.release;
      } else {
        args.push('--ro-bind', wrapOptions.workspaceRoot, wrapOptions.workspaceRoot);
      }
      args.push('--chdir', wrapOptions.cwd, '--', wrapOptions.shell, '-c', command);
      return { file: executable, args, env: { ...wrapOptions.env, TMPDIR: '/tmp' }, cleanup: release };
    },
  };
}
