export type {
  ModelCatalogEntry, ModelParameterDefinition, ModelPricing, ModelSelection, ProviderContext, ProviderSettings, ProviderV1,
} from './provider.js';
