export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];
export type JSONObject = { [key: string]: JSONValue | undefined };

/** Data a provider attaches to a part and wants back on the next request, keyed by provider id. */
export type ProviderMetadata = Record<string, JSONObject>;
/** Provider-specific call options, keyed by provider id (the rule of three: shared once three have it). */
export type ProviderOptions = Record<string, JSONObject>;

/** A JSON Schema (draft 7 / 2020-12 subset) as plain data. */
export type JSONSchema = { [key: string]: unknown };
