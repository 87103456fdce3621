// The chat remembers which agent is open (and the page its token) in sessionStorage: it survives a
// reload of the tab, and is gone when the tab closes. Storage can be missing or refuse writes
// (private modes, sandboxed frames); then nothing is remembered and nothing breaks.

const agentKey = 'cairn.chat.agentId';
export const tokenKey = 'cairn.chat.token';

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export function readStored(key: string): string | undefined {
  try {
    return storage()?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: string | undefined): void {
  try {
    if (value === undefined) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Storage full or refused: the agent is just not remembered.
  }
}

/** The agent to open: `?agent=` in the address, else the one this tab had open. */
export function rememberedAgentId(): string | undefined {
  const fromUrl = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('agent');
  return fromUrl || readStored(agentKey);
}

export function rememberAgentId(agentId: string | undefined): void {
  writeStored(agentKey, agentId);
}
