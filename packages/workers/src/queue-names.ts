import { ConfigurationError } from '@cairn/core';

/** The graphile-worker task every queued run is: its payload is `{ runId, agentId }`. */
export const runTask = 'cairn.run';

/** graphile-worker's own default, so a database that already runs graphile jobs shares one schema. */
export const defaultGraphileSchema = 'graphile_worker';

/** The job of one queued run, as `dispatch` adds it. */
export interface RunJobPayload {
  runId: string;
  agentId: string;
}

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A plain lowercase identifier: graphile quotes it in its own SQL, and this package's SQL (which
 * reads graphile's tables) quotes it the same way, so no name needs escaping rules of its own.
 */
export function checkGraphileSchema(schema: unknown): string {
  if (schema === undefined) return defaultGraphileSchema;
  if (typeof schema !== 'string' || !schemaPattern.test(schema) || schema.startsWith('pg_')) {
    throw new ConfigurationError(
      `Invalid graphileSchema ${JSON.stringify(schema)}: use lowercase letters, digits and underscores, starting with a letter or an underscore, at most 63 characters, not starting with pg_ (default "${defaultGraphileSchema}").`,
    );
  }
  return schema;
}

/** The quoted names of the graphile tables this package reads and writes. */
export interface GraphileTables {
  schema: string;
  jobs: string;
  queues: string;
  tasks: string;
}

export function graphileTables(schema: string): GraphileTables {
  const table = (name: string) => `"${schema}"."${name}"`;
  return { schema: `"${schema}"`, jobs: table('_private_jobs'), queues: table('_private_job_queues'), tasks: table('_private_tasks') };
}

/** The payload of a `cairn.run` job, checked: a job added by hand with another shape fails loudly. */
export function parseRunJobPayload(payload: unknown): RunJobPayload {
  const value = payload as Partial<RunJobPayload> | null;
  if (!value || typeof value.runId !== 'string' || typeof value.agentId !== 'string' || value.runId === '' || value.agentId === '') {
    throw new ConfigurationError(`A ${runTask} job needs the payload { runId, agentId } (got ${JSON.stringify(payload)}).`);
  }
  return { runId: value.runId, agentId: value.agentId };
}
