import { execFile } from 'node:child_process';
import { findExecutable } from './find-executable.js';

export type PidNamespaceAvailability = { available: true; executable: string } | { available: false; reason: string };

export const pidNamespaceInstallHint = 'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap) and allow user namespaces';

// Root keeps its capabilities in the namespace (it is root on the host, which the user chose), but
// not the ones that would undo the isolation: unmounting the fresh /proc or a mask
// (CAP_SYS_ADMIN), reading memory through ptrace, /proc/kcore, BPF or perf, kernel modules, or
// opening files by handle past the masks (CAP_DAC_READ_SEARCH, the "shocker" escape).
const rootCapabilitiesDropped = ['CAP_SYS_ADMIN', 'CAP_SYS_PTRACE', 'CAP_SYS_MODULE', 'CAP_SYS_RAWIO', 'CAP_BPF', 'CAP_PERFMON', 'CAP_DAC_READ_SEARCH', 'CAP_CHECKPOINT_RESTORE'];

/** The bubblewrap arguments that run a command on the host file system in its own PID namespace. */
export function pidNamespaceArgs(masks: readonly string[] = []): string[] {
  const args = ['--dev-bind', '/', '/', '--unshare-pid', '--proc', '/proc', '--die-with-parent'];
  if (process.getuid?.() === 0) for (const capability of rootCapabilitiesDropped) args.push('--cap-drop', capability);
  return [...args, ...masks];
}

let availability: Promise<PidNamespaceAvailability> | undefined;

/** Probed once per process by making a namespace for real: containers and kernels may forbid it. */
export function pidNamespaceAvailability(): Promise<PidNamespaceAvailability> {
  availability ??= (async (): Promise<PidNamespaceAvailability> => {
    if (process.platform !== 'linux') return { available: false, reason: `PID namespaces need Linux (this is ${process.platform})` };
    const executable = await findExecutable('bwrap', process.env.PATH);
    if (!executable) return { available: false, reason: `bwrap was not found; ${pidNamespaceInstallHint}` };
    return new Promise((resolve) => {
      execFile(executable, [...pidNamespaceArgs(), '--', '/bin/sh', '-c', 'true'], { timeout: 10_000 }, (error, _stdout, stderr) => {
        if (error) resolve({ available: false, reason: `bwrap cannot make a PID namespace here: ${(stderr || error.message).trim()}` });
        else resolve({ available: true, executable });
      });
    });
  })();
  return availability;
}

/**
 * A command run without the OS sandbox still gets its own PID namespace, with the host's file
 * system as it is (`--dev-bind / /`) and a fresh /proc:
 * - the agent's process is invisible, so `/proc/$PPID/environ`, `/proc/<pid>/mem` and ptrace
 *   cannot reach the agent's API keys or memory;
 * - when the command's init ends (the command finished, was killed, or the agent died:
 *   `--die-with-parent`), the kernel kills every process left in the namespace — also those that
 *   left the process group with `setsid`, double forks, `nohup` or `disown`.
 */
export function inPidNamespace(executable: string, command: { shell: string; script: string; cwd: string; masks: readonly string[] }): { file: string; args: string[] } {
  return { file: executable, args: [...pidNamespaceArgs(command.masks), '--chdir', command.cwd, '--', command.shell, '-c', command.script] };
}
