type HostEnv = Record<string, string | undefined>;

/**
 * The host's environment variables: `process.env` on Node, none in a browser or worker where `process`
 * does not exist. Code the root entry ships reads the environment through this, so resolving a model
 * with keys given as settings works outside Node instead of failing with "process is not defined".
 */
export function hostEnv(): HostEnv {
  return (globalThis as { process?: { env?: HostEnv } }).process?.env ?? {};
}
