import { CairnChat } from '@cairn/chat-ui';
import { createRoot } from 'react-dom/client';

// The server `cairn serve` runs (change it with ?server=), and its token from the address
// fragment: open http://localhost:5173/#token=TOKEN (a fragment is never sent over the network).
const serverUrl = new URLSearchParams(location.search).get('server') ?? 'http://127.0.0.1:4780';
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

const container = document.getElementById('chat');
if (container) createRoot(container).render(<CairnChat serverUrl={serverUrl} token={token} />);
