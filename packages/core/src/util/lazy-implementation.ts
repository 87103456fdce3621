/**
 * A loader for code that only a call needs (a tool's execute body and what it uses): the first call
 * starts the dynamic import, later calls share it. The pack's import then holds only what the
 * registry reads before any call (name, description, schema, flags), so start-up does not pay for
 * code most runs never reach. A failed import is cached like a loaded one: Node's module map keeps
 * a module whose evaluation failed, so a retry would only repeat the failure.
 */
export function lazyImplementation<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
