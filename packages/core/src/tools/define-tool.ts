import { ConfigurationError } from '../spec/errors/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Declare a tool. Returns the definition unchanged after checking the fields a provider would
 * reject later (names must match `^[a-zA-Z0-9_-]{1,64}$` for every major API).
 */
export function defineTool<Input>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  if (!toolNamePattern.test(definition.name)) {
    throw new ConfigurationError(`Tool name "${definition.name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
  }
  if (!definition.id) throw new ConfigurationError(`Tool "${definition.name}" needs an id (used by permission rules).`);
  if (!definition.description?.trim()) throw new ConfigurationError(`Tool "${definition.name}" needs a description: the model reads it to decide when to call the tool.`);
  if (typeof definition.execute !== 'function') throw new ConfigurationError(`Tool "${definition.name}" needs an execute function.`);
  return definition;
}
