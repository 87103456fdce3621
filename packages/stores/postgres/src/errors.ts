import { CairnError } from '@cairn/core';

// The codes the conformance suite and callers branch on, as the SQLite store reports them.

export { alreadyExistsError, invalidArgumentError, notFoundError } from '@cairn/core';

/** Where the store lives, for messages: never the password. */
export interface StoreLocation {
  host: string;
  port: number;
  database: string;
  schema: string;
}

export const describeLocation = (at: StoreLocation) => `schema "${at.schema}" of database "${at.database}" on ${at.host}:${at.port}`;

export function newerSchemaError(at: StoreLocation, found: number, supported: number): CairnError {
  return new CairnError(
    `The Cairn store in ${describeLocation(at)} has schema version ${found}, written by a newer @cairn/store-postgres ` +
      `(this one supports up to version ${supported}). It was not modified. Upgrade @cairn/store-postgres to open it.`,
    { code: 'store_version_unsupported' },
  );
}

export function foreignSchemaError(at: StoreLocation, tables: string[]): CairnError {
  return new CairnError(
    `The ${describeLocation(at)} already has tables Cairn did not create (${tables.slice(0, 5).join(', ')}). It was not modified. ` +
      'Pass another schema name (option `schema`) for the Cairn store.',
    { code: 'store_corrupt' },
  );
}
