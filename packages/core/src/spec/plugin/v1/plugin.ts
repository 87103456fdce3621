import type { ModeDefinition } from '../../mode/v1/mode.js';
import type { ProviderV1 } from '../../provider/v1/provider.js';
import type { AgentStore } from '../../store/v1/store.js';
import type { ToolDefinition } from '../../tool/v1/tool.js';

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

/** What a package contributes to a registry: providers, tools, modes, stores. */
export interface CairnPlugin {
  name: string;
  providers?: ProviderV1[];
  tools?: ToolDefinition[];
  modes?: ModeDefinition[];
  /** Named store factories, e.g. `sqlite`, selected by configuration. */
  stores?: Record<string, (options: { home: string }) => AgentStore>;
  /** Called after a tool changed a workspace file, e.g. so an index re-indexes it at once. Failures are ignored. */
  onFileChange?(change: WorkspaceFileChange): void | Promise<void>;
}
