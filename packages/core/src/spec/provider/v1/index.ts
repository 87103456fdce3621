export type { ModelListItem, ModelListOptions, ModelParameterDefinition, ModelVariant, SDKModel } from './model-list.js';
export type {
  CatalogParameterDefinition, ModelCatalogEntry, ModelParameterValue, ModelPricing, ModelSelection, ProviderContext, ProviderSettings, ProviderV1,
} from './provider.js';
