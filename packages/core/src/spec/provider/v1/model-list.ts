import type { ModelParameterValue, ProviderSettings } from './provider.js';

/** A parameter of a listed model and the values a selection may give it (all strings). */
export interface ModelParameterDefinition {
  id: string;
  displayName?: string;
  /** The first value is what applies when the selection leaves the parameter out, where that is known. */
  values: Array<{ value: string; displayName?: string }>;
}

/** A preset selection of a listed model: copy `params` into `ModelSelection.params`. */
export interface ModelVariant {
  params: ModelParameterValue[];
  displayName: string;
  description?: string;
  /** The variant that matches a selection without params. */
  isDefault?: boolean;
}

/** One model of `Cairn.models.list()`: every `id` and alias is accepted as `ModelSelection.id`. */
export interface ModelListItem {
  id: string;
  displayName: string;
  description?: string;
  aliases?: string[];
  parameters?: ModelParameterDefinition[];
  variants?: ModelVariant[];
}

export type SDKModel = ModelListItem;

/** Options of `Cairn.models.list()`. */
export interface ModelListOptions {
  /** Provider settings (keys, base URLs), as in `AgentOptions.providers`; they decide which providers are configured. */
  providers?: Record<string, ProviderSettings | undefined>;
  /** The environment provider keys are read from. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Not supported: a Cairn catalog spans several providers, each with its own key, so one key has no
   * provider to apply to. Passing one throws a ConfigurationError naming `providers.<id>.apiKey`.
   */
  apiKey?: string;
}
