import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { SandboxRequirement } from '../spec/tool/v1/index.js';
import type { SandboxOptions } from './agent-options.js';

/**
 * The OS sandbox a mode's tools run in. A read-only mode always gets the read-only sandbox, and the
 * stricter of the mode's profile and its shell policy wins, so a mode that declares a sandboxed shell
 * never runs commands on the host; otherwise `local.sandboxOptions` decides.
 */
export function sandboxRequirement(mode: ModeDefinition, sandbox: SandboxOptions | undefined): SandboxRequirement {
  const networkAllow = sandbox?.network?.allow ?? [];
  if (mode.sandboxProfile === 'read-only' || mode.toolPolicy.readOnly || mode.toolPolicy.shell === 'sandbox-read-only') return { profile: 'read-only', networkAllow: [], required: true };
  if (mode.sandboxProfile === 'workspace-write' || mode.toolPolicy.shell === 'sandbox-workspace-write') return { profile: 'workspace-write', networkAllow, required: true };
  return sandbox?.enabled ? { profile: 'workspace-write', networkAllow, required: true } : { profile: 'none', networkAllow: [], required: false };
}
