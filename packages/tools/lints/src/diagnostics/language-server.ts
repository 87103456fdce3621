import { pathToFileURL } from 'node:url';
import { type CancellationToken, CancellationTokenSource } from 'vscode-languageserver-protocol/node.js';
import type { LanguageServerConfig } from './diagnostics-settings.js';
import type { LspProcess } from './lsp-process.js';
import { fromLspDiagnostic, fromTsserverDiagnostic, type ServerDiagnostic } from './server-diagnostic.js';

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
  /** The diagnostics of `version`, once fetched. */
  diagnostics?: ServerDiagnostic[];
}

/** Most documents kept open; the least recently used is closed beyond it (each costs the server memory). */
const maxOpenDocuments = 50;

/**
 * One running language server and the documents Cairn has opened in it. `diagnose(path, text)`
 * makes `text` the document's next version and returns the diagnostics of exactly that version:
 * pulled (tsserver's `*DiagnosticsSync` requests through typescript-language-server's
 * `typescript.tsserverRequest` command, or LSP `textDocument/diagnostic`), or, for servers that
 * only push, the `publishDiagnostics` naming that version. Calls run one at a time.
 */
export class LanguageServer {
  private readonly documents = new Map<string, OpenDocument>();
  private readonly waiting = new Map<string, { version: number; resolve(diagnostics: ServerDiagnostic[]): void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly mode: 'pull' | 'push' | 'tsserver';

  constructor(
    readonly config: LanguageServerConfig,
    readonly process: LspProcess,
  ) {
    this.mode = config.diagnostics ?? (process.capabilities.diagnosticProvider ? 'pull' : 'push');
    process.connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics: Parameters<typeof fromLspDiagnostic>[0][] }) => {
      const waiter = this.waiting.get(params.uri);
      // A publish without a version is taken only by servers configured as `push` that never send one.
      if (!waiter || (params.version !== undefined && params.version !== waiter.version)) return;
      this.waiting.delete(params.uri);
      waiter.resolve(params.diagnostics.map(fromLspDiagnostic).filter((item): item is ServerDiagnostic => item !== undefined));
    });
  }

  languageOf(path: string): string | undefined {
    const dot = path.lastIndexOf('.');
    return dot < 0 ? undefined : this.config.languages[path.slice(dot).toLowerCase()];
  }

  /** The diagnostics of `text` as the document at `path`; reuses the last answer when the text is unchanged. */
  diagnose(path: string, text: string, signal: AbortSignal): Promise<ServerDiagnostic[]> {
    return this.serial(async () => {
      signal.throwIfAborted();
      const document = this.sync(path, text);
      if (document.diagnostics) return document.diagnostics;
      const version = document.version;
      const diagnostics = await this.fetch(document, signal);
      if (document.version === version) document.diagnostics = diagnostics;
      return diagnostics;
    });
  }

  /** The last diagnostics fetched for `path` if its open text is `text`. */
  cached(path: string, text: string): ServerDiagnostic[] | undefined {
    const document = this.documents.get(path);
    return document && document.text === text ? document.diagnostics : undefined;
  }

  /** Close the document (the file was deleted): the server goes back to the disk. */
  forget(path: string): Promise<void> {
    return this.serial(async () => {
      const document = this.documents.get(path);
      if (!document) return;
      this.documents.delete(path);
      await this.process.connection.sendNotification('textDocument/didClose', { textDocument: { uri: document.uri } });
    });
  }

  openPaths(): string[] {
    return [...this.documents.keys()];
  }

  private sync(path: string, text: string): OpenDocument {
    const connection = this.process.connection;
    const existing = this.documents.get(path);
    if (existing) {
      // Most recently used last.
      this.documents.delete(path);
      this.documents.set(path, existing);
      if (existing.text === text) return existing;
      existing.version += 1;
      existing.text = text;
      existing.diagnostics = undefined;
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri: existing.uri, version: existing.version }, contentChanges: [{ text }] });
      return existing;
    }
    const document: OpenDocument = { uri: pathToFileURL(path).href, version: 1, text };
    this.documents.set(path, document);
    void connection.sendNotification('textDocument/didOpen', { textDocument: { uri: document.uri, languageId: this.languageOf(path) ?? 'plaintext', version: 1, text } });
    this.closeBeyondLimit();
    return document;
  }

  private closeBeyondLimit(): void {
    for (const [path, document] of this.documents) {
      if (this.documents.size <= maxOpenDocuments) break;
      this.documents.delete(path);
      void this.process.connection.sendNotification('textDocument/didClose', { textDocument: { uri: document.uri } });
    }
  }

  private async fetch(document: OpenDocument, signal: AbortSignal): Promise<ServerDiagnostic[]> {
    const connection = this.process.connection;
    const token = cancellationOf(signal);
    if (this.mode === 'tsserver') {
      const ask = (command: string) =>
        connection.sendRequest<{ body?: Parameters<typeof fromTsserverDiagnostic>[0][] } | null>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, { file: document.uri }] }, token);
      const [syntactic, semantic] = await Promise.all([ask('syntacticDiagnosticsSync'), ask('semanticDiagnosticsSync')]);
      signal.throwIfAborted();
      return [...(syntactic?.body ?? []), ...(semantic?.body ?? [])].map(fromTsserverDiagnostic).filter((item): item is ServerDiagnostic => item !== undefined);
    }
    if (this.mode === 'pull') {
      const report = await connection.sendRequest<{ kind: string; items?: Parameters<typeof fromLspDiagnostic>[0][] } | null>('textDocument/diagnostic', { textDocument: { uri: document.uri } }, token);
      signal.throwIfAborted();
      return (report?.items ?? []).map(fromLspDiagnostic).filter((item): item is ServerDiagnostic => item !== undefined);
    }
    return new Promise<ServerDiagnostic[]>((resolve, reject) => {
      this.waiting.set(document.uri, { version: document.version, resolve });
      signal.addEventListener('abort', () => {
        this.waiting.delete(document.uri);
        reject(signal.reason);
      }, { once: true });
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** A JSON-RPC cancellation token that follows `signal` (the request is cancelled at the server too). */
function cancellationOf(signal: AbortSignal): CancellationToken {
  const source = new CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source.token;
}
