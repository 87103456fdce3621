import { ConfigurationError } from '../spec/errors/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { anyMode } from './mode-transitions.js';

const modeIdPattern = /^[a-z][a-z0-9-]*$/;

/** Check a mode at registration, with a message that names the field. */
export function validateMode(mode: ModeDefinition, pluginName: string): ModeDefinition {
  const where = `Mode "${String(mode?.id)}" from plugin "${pluginName}"`;
  if (!mode || typeof mode.id !== 'string' || !modeIdPattern.test(mode.id)) {
    throw new ConfigurationError(`${where}: "id" must be a lower-case name like "plan" or "review".`);
  }
  if (typeof mode.description !== 'string' || !mode.description.trim()) throw new ConfigurationError(`${where}: "description" is required.`);
  if (!Array.isArray(mode.promptBlocks) || mode.promptBlocks.some((block) => typeof block !== 'string')) {
    throw new ConfigurationError(`${where}: "promptBlocks" must be an array of strings.`);
  }
  if (!mode.toolPolicy || typeof mode.toolPolicy.readOnly !== 'boolean') {
    throw new ConfigurationError(`${where}: "toolPolicy.readOnly" must be true or false.`);
  }
  if (!['all', 'readOnlyHint', 'none'].includes(mode.toolPolicy.mcp)) {
    throw new ConfigurationError(`${where}: "toolPolicy.mcp" must be "all", "readOnlyHint" or "none".`);
  }
  if (!['inherit', 'read-only', 'workspace-write'].includes(mode.sandboxProfile)) {
    throw new ConfigurationError(`${where}: "sandboxProfile" must be "inherit", "read-only" or "workspace-write".`);
  }
  checkModeList(mode.transitionsTo, `${where}: "transitionsTo"`, false);
  if (mode.enterableFrom !== undefined) checkModeList(mode.enterableFrom, `${where}: "enterableFrom"`, true);
  return mode;
}

/** `transitionsTo` / `enterableFrom`: mode ids, or `{ mode, requiresApproval? }`; `'*'` only where any mode may be meant. */
function checkModeList(list: unknown, where: string, allowAny: boolean): void {
  const shape = allowAny
    ? 'an array of mode ids ("agent"), "*" for any mode, or { mode, requiresApproval }'
    : 'an array of mode ids ("agent") or { mode, requiresApproval }';
  if (!Array.isArray(list)) throw new ConfigurationError(`${where} must be ${shape}.`);
  for (const entry of list) {
    const id = typeof entry === 'string' ? entry : (entry as { mode?: unknown } | null)?.mode;
    const validId = typeof id === 'string' && (modeIdPattern.test(id) || (allowAny && id === anyMode));
    const approval = typeof entry === 'object' && entry !== null ? (entry as { requiresApproval?: unknown }).requiresApproval : undefined;
    if (!validId || (approval !== undefined && typeof approval !== 'boolean')) {
      throw new ConfigurationError(`${where} has an invalid entry ${JSON.stringify(entry)}: it must be ${shape}.`);
    }
  }
}
