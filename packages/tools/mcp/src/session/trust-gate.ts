import type { McpProjectServer, McpServerConfig } from '@cairn/core';
import type { ServerDeclaration } from '../config/server-declaration.js';

export type TrustAnswer = { trusted: true } | { trusted: false; reason: string };

export type TrustCheck = (server: McpProjectServer) => boolean | Promise<boolean>;

/**
 * Asks the host's trust check about each project server once per session (until `forget`, on reload),
 * by file, name and hash of the config as written. Servers of other origins need no trust: inline ones
 * come from the caller's code, user files from the user. Without a check, project servers are trusted:
 * the project layer was asked for (`projectServers`).
 */
export class TrustGate {
  private readonly answers = new Map<string, Promise<TrustAnswer>>();
  private readonly settled = new Map<string, TrustAnswer>();

  constructor(private readonly check: TrustCheck | undefined) {}

  decide(declaration: ServerDeclaration): Promise<TrustAnswer> {
    if (declaration.origin !== 'project' || this.check === undefined) return Promise.resolve({ trusted: true });
    const key = trustKey(declaration);
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.ask(this.check, declaration).then((settled) => {
        this.settled.set(key, settled);
        return settled;
      });
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** The answer given for this declaration, if it was asked about. */
  answerFor(declaration: ServerDeclaration): TrustAnswer | undefined {
    return declaration.origin === 'project' ? this.settled.get(trustKey(declaration)) : undefined;
  }

  forget(): void {
    this.answers.clear();
    this.settled.clear();
  }

  private async ask(check: TrustCheck, declaration: ServerDeclaration): Promise<TrustAnswer> {
    const server: McpProjectServer = {
      name: declaration.name,
      config: declaration.written as McpServerConfig,
      file: declaration.file!,
      hash: declaration.writtenHash,
    };
    try {
      if ((await check(server)) === true) return { trusted: true };
      return { trusted: false, reason: notTrustedReason(declaration, 'it is not trusted for this workspace') };
    } catch (error) {
      return { trusted: false, reason: notTrustedReason(declaration, `the trust check failed (${(error as Error).message ?? String(error)})`) };
    }
  }
}

function trustKey(declaration: ServerDeclaration): string {
  return `${declaration.file}\u0000${declaration.name}\u0000${declaration.writtenHash}`;
}

function notTrustedReason(declaration: ServerDeclaration, why: string): string {
  return (
    `MCP server "${declaration.name}" (in ${declaration.file}) was not started: ${why}. A project's config files can start ` +
    'programs, so each project server must be confirmed: approve it where your host asks (the Cairn CLI asks once per ' +
    'workspace, and again whenever the server\'s config changes), or declare it inline in mcpServers'
  );
}
