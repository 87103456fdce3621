import { ConfigurationError } from '../spec/errors/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { McpConnector } from '../spec/mcp/v1/index.js';
import type { CairnPlugin, PluginReplacements } from '../spec/plugin/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { validateMode } from './validate-mode.js';

/** The four things a plugin contributes by id, by the name of their slot on CairnPlugin and in `replaces`. */
export type PluginSlot = Exclude<keyof PluginReplacements, 'mcp'>;

const slots: readonly PluginSlot[] = ['providers', 'modes', 'stores', 'tools'];
const singular: Record<PluginSlot, string> = { providers: 'provider', modes: 'mode', stores: 'store', tools: 'tool' };

/** One provider, mode, store factory or tool of a plugin, under the key the registry looks it up by. */
export interface Contribution {
  slot: PluginSlot;
  /** Provider id, mode id, store name or tool name (the model-facing name). */
  key: string;
  value: unknown;
}

/** What is registered under a key, and which plugin registered it (for the duplicate error). */
export interface Registered<T> {
  value: T;
  plugin: CairnPlugin;
}

export type RegisteredSlots = Record<PluginSlot, Map<string, Registered<unknown>>>;

/**
 * Check a plugin against what is registered and return what to add: nothing changes when any check
 * fails. An id registered by an earlier plugin is an error unless this plugin lists it in
 * `replaces`; a `replaces` entry that takes over nothing is an error too (a typo must not pass).
 * The very same object registered again (a built-in mode re-listed by `createModesPlugin`) is
 * left as it is.
 */
export function planRegistration(plugin: CairnPlugin, registered: RegisteredSlots): Contribution[] {
  const replaces = replacementsOf(plugin);
  const contributions = dropRepeats(plugin, contributionsOf(plugin));
  for (const slot of slots) {
    for (const key of replaces[slot] ?? []) {
      if (!contributions.some((entry) => entry.slot === slot && entry.key === key)) {
        throw new ConfigurationError(
          `Plugin "${plugin.name}" declares replaces.${slot} "${key}" but registers no ${singular[slot]} "${key}". List in replaces only what the plugin itself registers in place of another plugin's.`,
        );
      }
    }
  }
  return contributions.filter((entry) => {
    const existing = registered[entry.slot].get(entry.key);
    const declared = replaces[entry.slot]?.includes(entry.key) ?? false;
    if (existing?.value === entry.value) return false;
    if (existing && !declared) throw duplicateError(plugin, entry, existing.plugin);
    if (!existing && declared) {
      const known = [...registered[entry.slot].keys()].join(', ') || 'none';
      throw new ConfigurationError(
        `Plugin "${plugin.name}" declares replaces.${entry.slot} "${entry.key}", but no plugin registered ${singular[entry.slot]} "${entry.key}" before it (registered: ${known}). Remove it from replaces, or register "${plugin.name}" after the plugin it replaces.`,
      );
    }
    return true;
  });
}

function duplicateError(plugin: CairnPlugin, entry: Contribution, owner: CairnPlugin): ConfigurationError {
  const kind = singular[entry.slot];
  const rename = entry.slot === 'tools' ? 'Give one of the tools another name' : entry.slot === 'stores' ? 'Give one of the stores another name' : `Give one of the ${entry.slot} another id`;
  return new ConfigurationError(
    `Plugin "${plugin.name}" registers ${kind} "${entry.key}", which plugin "${owner.name}" already registered. ${rename}, or let "${plugin.name}" take it over: add replaces: { ${entry.slot}: ['${entry.key}'] } to it and register it after "${owner.name}".`,
  );
}

/** Every contribution of the plugin, each checked for its shape. */
function contributionsOf(plugin: CairnPlugin): Contribution[] {
  const list = (slot: 'providers' | 'modes' | 'tools'): unknown[] => {
    const value = plugin[slot];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ConfigurationError(`Plugin "${plugin.name}": "${slot}" must be an array.`);
    return value;
  };
  const contributions: Contribution[] = [];
  for (const provider of list('providers')) {
    const id = (provider as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id) throw new ConfigurationError(`Plugin "${plugin.name}": every provider needs an "id" string (the part before "/" in model ids).`);
    contributions.push({ slot: 'providers', key: id, value: provider });
  }
  for (const mode of list('modes')) contributions.push({ slot: 'modes', key: validateMode(mode as ModeDefinition, plugin.name).id, value: mode });
  for (const tool of list('tools')) contributions.push({ slot: 'tools', key: checkedTool(tool, plugin.name).name, value: tool });
  if (plugin.stores !== undefined) {
    if (typeof plugin.stores !== 'object' || plugin.stores === null || Array.isArray(plugin.stores)) {
      throw new ConfigurationError(`Plugin "${plugin.name}": "stores" must map store names to factories, e.g. { sqlite: (context) => createSqliteStore() }.`);
    }
    for (const [name, factory] of Object.entries(plugin.stores)) {
      if (typeof factory !== 'function') throw new ConfigurationError(`Plugin "${plugin.name}": store "${name}" must be a function that opens the store.`);
      contributions.push({ slot: 'stores', key: name, value: factory });
    }
  }
  return contributions;
}

/** A key twice in one plugin is an error, unless it is the same object listed twice. */
function dropRepeats(plugin: CairnPlugin, contributions: Contribution[]): Contribution[] {
  const seen = new Map<string, Contribution>();
  return contributions.filter((entry) => {
    const id = `${entry.slot}\u0000${entry.key}`;
    const earlier = seen.get(id);
    if (!earlier) {
      seen.set(id, entry);
      return true;
    }
    if (earlier.value === entry.value) return false;
    throw new ConfigurationError(`Plugin "${plugin.name}" registers ${singular[entry.slot]} "${entry.key}" twice. Keep one of them.`);
  });
}

/** `readOnly` is the one flag modes read; a `readOnlyHint` that says otherwise would be a silent surprise. */
function checkedTool(tool: unknown, pluginName: string): ToolDefinition {
  const definition = tool as ToolDefinition;
  if (!definition || typeof definition.name !== 'string' || !definition.name) throw new ConfigurationError(`Plugin "${pluginName}": every tool needs a "name" string (what the model calls).`);
  const where = `Tool "${definition.name}" from plugin "${pluginName}"`;
  if (typeof definition.readOnly !== 'boolean') throw new ConfigurationError(`${where}: "readOnly" must be true (the tool cannot change anything) or false.`);
  if (definition.readOnlyHint !== undefined && definition.readOnlyHint !== definition.readOnly) {
    throw new ConfigurationError(
      `${where} says readOnly: ${definition.readOnly} but readOnlyHint: ${String(definition.readOnlyHint)}. Modes read readOnly alone: set readOnly: true if the tool cannot change anything (false otherwise), and remove readOnlyHint.`,
    );
  }
  return definition;
}

/** `replaces`, checked: known slots, arrays of ids, and `mcp` true or false. */
function replacementsOf(plugin: CairnPlugin): PluginReplacements {
  const replaces = plugin.replaces;
  if (replaces === undefined) return {};
  const shape = `{ providers?, modes?, stores?, tools?, mcp? }, each an array of ids and mcp true or false (for example replaces: { modes: ['agent'] })`;
  if (typeof replaces !== 'object' || replaces === null || Array.isArray(replaces)) throw new ConfigurationError(`Plugin "${plugin.name}": "replaces" must be ${shape}.`);
  for (const [slot, ids] of Object.entries(replaces)) {
    if (slot === 'mcp') {
      if (typeof ids !== 'boolean') throw new ConfigurationError(`Plugin "${plugin.name}": replaces.mcp must be true (take over the MCP connector) or false.`);
      continue;
    }
    if (!slots.includes(slot as PluginSlot)) throw new ConfigurationError(`Plugin "${plugin.name}": replaces does not know "${slot}"; it takes ${slots.join(', ')}, mcp.`);
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw new ConfigurationError(`Plugin "${plugin.name}": replaces.${slot} must be an array of ids.`);
  }
  return replaces;
}

/**
 * The MCP connector this plugin registers, checked against the one registered (there is one per
 * registry): undefined when the plugin brings none or the very same one. Taking it over needs
 * `replaces: { mcp: true }`, which in turn needs a connector to take over. Throws changing nothing.
 */
export function planMcpRegistration(plugin: CairnPlugin, registered: Registered<McpConnector> | undefined): McpConnector | undefined {
  const declared = replacementsOf(plugin).mcp === true;
  const connector = plugin.mcp;
  if (connector === undefined) {
    if (declared) throw new ConfigurationError(`Plugin "${plugin.name}" declares replaces.mcp but registers no mcp connector. Remove replaces.mcp, or give the plugin an mcp connector.`);
    return undefined;
  }
  if (typeof connector !== 'object' || connector === null || typeof connector.configProblem !== 'function' || typeof connector.open !== 'function') {
    throw new ConfigurationError(`Plugin "${plugin.name}": "mcp" must be an MCP connector { configProblem(name, config), open(options) }, such as mcpPlugin() of @cairn/tools-mcp provides.`);
  }
  if (registered?.value === connector) return undefined;
  if (registered && !declared) {
    throw new ConfigurationError(
      `Plugin "${plugin.name}" registers an MCP connector, but plugin "${registered.plugin.name}" already registered one (there is one per registry). Register only one of them, or let "${plugin.name}" take it over: add replaces: { mcp: true } to it and register it after "${registered.plugin.name}".`,
    );
  }
  if (!registered && declared) {
    throw new ConfigurationError(`Plugin "${plugin.name}" declares replaces.mcp, but no plugin registered an MCP connector before it. Remove replaces.mcp, or register "${plugin.name}" after the plugin it replaces.`);
  }
  return connector;
}
