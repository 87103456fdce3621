import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ConfigurationError } from '@cairn/core';
import { findExecutable } from '../process/find-executable.js';
import { shellLogDirectory } from '../process/log-directory.js';
import { denyMaskArgs } from './deny-masks.js';
import { bubblewrapInstallHint } from './install-hint.js';
import { bridgeScript, sandboxProxyPort, startAllowListProxy } from './network-proxy.js';
import type { SandboxBackend, SandboxCleanupReport, SandboxedCommand, SandboxWrapOptions } from './sandbox-backend.js';
import { workspaceWriteMounts } from './workspace-write-mounts.js';

// Starts the in-sandbox bridge, waits until it listens (5 s at most), then runs the command as `$1`.
const bridgeWrapper = [
  '"$CAIRN_SANDBOX_NODE" -e "$CAIRN_SANDBOX_BRIDGE" "$CAIRN_SANDBOX_PROXY_SOCKET" ' + sandboxProxyPort + ' /tmp/.cairn-proxy-ready &',
  'i=0; while [ ! -e /tmp/.cairn-proxy-ready ]; do i=$((i+1)); if [ $i -gt 500 ]; then echo "cairn: the sandbox network proxy did not start" >&2; exit 125; fi; sleep 0.01; done',
  'unset CAIRN_SANDBOX_NODE CAIRN_SANDBOX_BRIDGE CAIRN_SANDBOX_PROXY_SOCKET',
  'exec "$0" -c "$1"',
].join('\n');

export { bubblewrapInstallHint };

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
      const allow = wrapOptions.networkAllow.map((host) => host.trim()).filter(Boolean);
      if (allow.some((host) => host === '*' || host.includes('/'))) {
        throw new ConfigurationError(`Sandbox network allow-list entries must be host names or IPs (example.com, *.example.com), got: ${allow.join(', ')}`);
      }
      const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net', '--cap-drop', 'ALL'];
      args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
      // Private temp dirs: the host's /tmp holds other programs' sockets (tmux, ssh-agent) that would be a way out.
      const temporaryDirectories = new Set(['/tmp', '/var/tmp', '/dev/shm', tmpdir()]);
      for (const directory of temporaryDirectories) if (await isDirectory(directory)) args.push('--tmpfs', directory);
      const readOnlyPaths = new Set(wrapOptions.readOnlyPaths ?? []);
      if (allow.length > 0) readOnlyPaths.add(shellLogDirectory());
      for (const path of readOnlyPaths) if (await isDirectory(path)) args.push('--ro-bind', path, path);
      let release = async () => {};
      let report: SandboxCleanupReport | undefined;
      if (wrapOptions.profile === 'workspace-write') {
        const workspace = await workspaceWriteMounts(wrapOptions);
        args.push(...workspace.args);
        release = async () => {
          report = await workspace.cleanup();
        };
      } else {
        args.push('--ro-bind', wrapOptions.workspaceRoot, wrapOptions.workspaceRoot);
      }
      // Last, so no later bind uncovers them.
      args.push(...(await denyMaskArgs(wrapOptions.maskedPaths ?? [])));
      args.push('--chdir', wrapOptions.cwd, '--');
      const env: Record<string, string> = { ...wrapOptions.env, TMPDIR: '/tmp' };
      if (allow.length === 0) {
        args.push(wrapOptions.shell, '-c', command);
        return { file: executable, args, env, cleanup: release, cleanupReport: () => report };
      }
      // Allow-listed hosts: still no network namespace peers; a host-side proxy decides per host.
      const releaseMounts = release;
      const proxy = await startAllowListProxy(allow).catch(async (error: unknown) => {
        await releaseMounts();
        throw error;
      });
      const proxyUrl = `http://127.0.0.1:${sandboxProxyPort}`;
      for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) env[name] = proxyUrl;
      env.NO_PROXY = '';
      env.no_proxy = '';
      env.CAIRN_SANDBOX_NODE = process.execPath;
      env.CAIRN_SANDBOX_BRIDGE = bridgeScript;
      env.CAIRN_SANDBOX_PROXY_SOCKET = proxy.socketPath;
      args.push(wrapOptions.shell, '-c', bridgeWrapper, wrapOptions.shell, command);
      return {
        file: executable,
        args,
        env,
        cleanup: async () => {
          await proxy.close();
          await releaseMounts();
        },
        cleanupReport: () => report,
      };
    },
  };
}
