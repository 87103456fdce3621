import { ConfigurationError } from '../spec/errors/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';

/** Check a mode at registration, with a message that names the field. */
export function validateMode(mode: ModeDefinition, pluginName: string): ModeDefinition {
  const where = `Mode "${String(mode?.id)}" from plugin "${pluginName}"`;
  if (!mode || typeof mode.id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(mode.id)) {
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
  if (!Array.isArray(mode.transitionsTo)) throw new ConfigurationError(`${where}: "transitionsTo" must be an array of mode ids.`);
  return mode;
}
