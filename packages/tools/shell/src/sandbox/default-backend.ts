import { createBubblewrapBackend } from './lazy-bubblewrap.js';
import type { SandboxBackend } from './sandbox-backend.js';

let backend: SandboxBackend | undefined;

/** The sandbox for this platform: bubblewrap on Linux. macOS seatbelt is not implemented yet. */
export function defaultSandboxBackend(): SandboxBackend {
  backend ??=
    process.platform === 'linux'
      ? createBubblewrapBackend()
      : {
          name: 'none',
          isAvailable: async () => ({ available: false, reason: `no sandbox backend for ${process.platform} yet (Linux uses bubblewrap; macOS seatbelt is planned)` }),
          wrap: async () => {
            throw new Error('unreachable: no sandbox backend');
          },
        };
  return backend;
}
