import { type FormEvent, StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CairnChat } from '../src/index.js';
import { showAgentInAddress, storePageToken, takePageToken } from './page-token.js';

// The page `cairn serve` hosts at `/`: the chat against the server that served it.
const serverUrl = location.origin;
const cwd = new URLSearchParams(location.search).get('cwd') ?? undefined;

function Page() {
  const [token, setToken] = useState(takePageToken);
  // A refused token is forgotten, so the page asks for the right one instead of failing forever.
  const guardedFetch = useCallback(async (input: string, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.status === 401) {
      storePageToken(undefined);
      setToken(undefined);
    }
    return response;
  }, []);
  const useToken = (value: string) => {
    storePageToken(value);
    setToken(value);
  };
  if (!token) return <TokenForm onToken={useToken} />;
  return <CairnChat serverUrl={serverUrl} token={token} {...(cwd ? { cwd } : {})} onAgentChange={showAgentInAddress} fetch={guardedFetch} />;
}

function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <div className="cairn-chat cairn-chat-single">
      <main className="cairn-main cairn-token-page">
        <form className="cairn-token-form" onSubmit={submit}>
          <h1>Cairn</h1>
          <p>Open the address `cairn serve` printed (it ends in #token=…), or paste the server token here.</p>
          <label htmlFor="cairn-token">Server token</label>
          <input id="cairn-token" type="password" autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} data-testid="token-input" />
          <button type="submit" className="cairn-button cairn-button-primary" disabled={!value.trim()}>
            Open the chat
          </button>
        </form>
      </main>
    </div>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Page />
    </StrictMode>,
  );
}
