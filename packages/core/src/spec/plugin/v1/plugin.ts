import type { McpConnector } from '../../mcp/v1/mcp.js';
import type { ModeDefinition } from '../../mode/v1/mode.js';
import type { ProviderV1 } from '../../provider/v1/provider.js';
import type { AgentStore } from '../../store/v1/store.js';
import type { ToolDefinition } from '../../tool/v1/tool.js';
import type { EditFeedbackProvider } from './edit-feedback.js';

/** A workspace file changed by one of the agent's tools. */
export interface WorkspaceFileChange {
  /** Canonical workspace root. */
  cwd: string;
  /** Absolute path of the changed file. */
  path: string;
  /** True when the tool deleted the file. */
  deleted: boolean;
  agentId: string;
  runId: string;
  toolCallId: string;
}

/** What a store factory of a plugin is given when an agent names its store (`local.store: 'sqlite'`). */
export interface StoreFactoryContext {
  /** The agent's environment (`AgentOptions.env`, default the process's): file stores read `CAIRN_HOME` from it. */
  env: Record<string, string | undefined>;
}

/** Opens the store a plugin registers under a name; called once per registry and name, on first use. */
export type StoreFactory = (context: StoreFactoryContext) => AgentStore;

/**
 * What a plugin takes over from plugins registered before it, by id: provider ids, mode ids, store
 * names and tool names (the model-facing `name`), and the MCP connector (`mcp: true`). Without an
 * entry here, registering an id another plugin already registered is an error; an entry that names
 * nothing registered is an error too.
 */
export interface PluginReplacements {
  providers?: string[];
  modes?: string[];
  stores?: string[];
  tools?: string[];
  /** Take over the MCP connector (`mcp`) an earlier plugin registered: there is one per registry. */
  mcp?: boolean;
}

/** What a package contributes to a registry: providers, tools, modes, stores. */
export interface CairnPlugin {
  name: string;
  providers?: ProviderV1[];
  tools?: ToolDefinition[];
  modes?: ModeDefinition[];
  /** Named store factories (`sqlite`, `jsonl`, ...): an agent picks one with `local.store: '<name>'`. */
  stores?: Record<string, StoreFactory>;
  /** Gives agents MCP servers (`mcpServers`, config files); one plugin provides it (`@cairn/tools-mcp`). */
  mcp?: McpConnector;
  /** Ids of providers, modes, stores and tools (and the MCP connector) this plugin deliberately takes over from earlier plugins. */
  replaces?: PluginReplacements;
  /** Called after a tool changed a workspace file, e.g. so an index re-indexes it at once. Failures are ignored. */
  onFileChange?(change: WorkspaceFileChange): void | Promise<void>;
  /** Feedback appended to an edit tool's result (diagnostics the edit introduced); opened per agent, time-bounded. */
  editFeedback?: EditFeedbackProvider;
}
