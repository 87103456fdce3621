import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';

export const testToken = 'test-token-0123456789abcdef';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: the process dies without closing anything. */
  kill(): Promise<void>;
}

/** `cairn serve` from the bundled CLI as a real process on a free port, with the given workspace as its root. */
export async function startServe(bin: string, options: { roots: string[]; env: Record<string, string | undefined>; args?: string[] }): Promise<ServeProcess> {
  const args = [bin, 'serve', '--port', '0', '--token', testToken, ...options.roots.flatMap((root) => ['--root', root]), ...(options.args ?? [])];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...options.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cairn serve did not start:\n${out}`)), 30_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`cairn serve exited:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function tempWorkspace(prefix = 'cairn-serve-ws-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** A small API client: JSON in and out, the token on every request unless told otherwise. */
export function api(base: string, token: string | undefined = testToken) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body ?? {}, headers),
    delete: (path: string) => call('DELETE', path),
    raw: call,
  };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Read `GET /v1/runs/{id}/events` until it ends, or until `stopAfter` events (then the connection is
 * dropped, as a client that goes away mid-run).
 */
export async function readEvents(base: string, runId: string, options: { lastEventId?: string; stopAfter?: number; query?: string; token?: string } = {}): Promise<{ events: SseEvent[]; comments: number; status: number }> {
  const controller = new AbortController();
  const response = await fetch(`${base}/v1/runs/${runId}/events${options.query ?? ''}`, {
    headers: { authorization: `Bearer ${options.token ?? testToken}`, ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let comments = 0;
  if (response.status !== 200 || !response.body) return { events, comments, status: response.status };
  const parser = createParser({
    onEvent: (event) => events.push({ ...(event.id ? { id: event.id } : {}), ...(event.event ? { event: event.event } : {}), data: event.data }),
    onComment: () => comments++,
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  }
  return { events: options.stopAfter !== undefined ? events.slice(0, options.stopAfter) : events, comments, status: response.status };
}

/** Poll until `check` returns a value (not undefined). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
