import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { processesMatching, structured, temporaryWorkspace, textOf, toolContext, waitFor } from '../test/tool-context.js';
import { runTerminalCmdTool as tool } from './run-terminal-cmd.js';

const marker = () => `1000.${Math.floor(Math.random() * 1e6)}`;

describe('run_terminal_cmd on the host', () => {
  it('runs bash -c in the workspace and reports the exit code', async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root);
    const result = await tool.execute({ command: 'pwd; echo err >&2; exit 3' }, context);
    expect(textOf(result)).toContain(root);
    expect(textOf(result)).toContain('err');
    expect(structured(result)).toMatchObject({ exitCode: 3, timedOut: false, truncated: false, sandbox: 'none' });
    expect(tool.ruleSubject?.({ command: 'git status' })).toBe('git status');
  });

  it('streams output as shell-output-delta updates', async () => {
    const root = await temporaryWorkspace();
    const { context, updates } = toolContext(root);
    await tool.execute({ command: 'echo one; echo two >&2' }, context);
    const deltas = updates.filter((update) => update.type === 'shell-output-delta');
    expect(deltas.map((delta) => delta.type === 'shell-output-delta' && `${delta.event.stream}:${String(delta.event.text).trim()}`).sort()).toEqual(['stderr:two', 'stdout:one']);
    expect(deltas.every((delta) => delta.type === 'shell-output-delta' && delta.event.callId === context.toolCallId)).toBe(true);
  });

  it('confines cwd to the workspace', async () => {
    const root = await temporaryWorkspace();
    await writeFile(join(root, 'file.txt'), 'x');
    const { context } = toolContext(root);
    await expect(tool.execute({ command: 'ls', cwd: '../' }, context)).rejects.toBeInstanceOf(ToolError);
    await expect(tool.execute({ command: 'ls', cwd: 'file.txt' }, context)).rejects.toThrow(/not a directory/);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(root, 'sub'));
    expect(textOf(await tool.execute({ command: 'pwd', cwd: 'sub' }, context))).toContain(join(root, 'sub'));
  });

  it('passes only the allow-listed environment, with settings to pass more', async () => {
    const root = await temporaryWorkspace();
    const env = {
      PATH: process.env.PATH, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-secret-1', GITHUB_TOKEN: 'ghp-secret-2', AWS_SECRET_ACCESS_KEY: 'aws-secret-3', DB_PASSWORD: 'pw-4',
      DATABASE_URL: 'postgres://u:pw-5@db', GITHUB_PAT: 'pat-6', NPM_CONFIG__AUTH: 'auth-7', SENTRY_DSN: 'https://key-8@sentry', OPENAI_KEY: 'key-9', HARMLESS: 'visible',
    };
    const { context } = toolContext(root, { env });
    const output = textOf(await tool.execute({ command: 'env' }, context));
    expect(output).toContain('LANG=C.UTF-8');
    expect(output).not.toContain('HARMLESS');
    for (const secret of ['sk-secret-1', 'ghp-secret-2', 'aws-secret-3', 'pw-4', 'pw-5', 'pat-6', 'auth-7', 'key-8', 'key-9']) expect(output).not.toContain(secret);
    const scoped = toolContext(root, { env, settings: { shell: { env: { pass: ['DATABASE_URL', 'HARM*'] } } } });
    const passed = textOf(await tool.execute({ command: 'env' }, scoped.context));
    expect(passed).toContain('DATABASE_URL=postgres://u:pw-5@db');
    expect(passed).toContain('HARMLESS=visible');
    const kept = toolContext(root, { env, settings: { environment: { keep: ['GITHUB_TOKEN'] } } });
    expect(textOf(await tool.execute({ command: 'env' }, kept.context))).toContain('GITHUB_TOKEN=ghp-secret-2');
  });

  it('timeout kills the whole process group, background children included', async () => {
    const root = await temporaryWorkspace();
    const seconds = marker();
    const { context } = toolContext(root, { settings: { killGraceMs: 200 } });
    const result = await tool.execute({ command: `sleep ${seconds} & sleep ${seconds}`, timeout_ms: 300 }, context);
    expect(structured(result)).toMatchObject({ timedOut: true });
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(await processesMatching(`sleep ${seconds}`)).toEqual([]);
  });

  it('cancel kills the whole group and rejects with an abort error', async () => {
    const root = await temporaryWorkspace();
    const seconds = marker();
    const { context, controller } = toolContext(root, { settings: { killGraceMs: 200 } });
    const running = tool.execute({ command: `sleep ${seconds} & sleep ${seconds}` }, context);
    expect(await waitFor(async () => (await processesMatching(`sleep ${seconds}`)).length >= 2)).toBe(true);
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await processesMatching(`sleep ${seconds}`)).toEqual([]);
  });

  it('kills background jobs a foreground command leaves behind', async () => {
    const root = await temporaryWorkspace();
    const seconds = marker();
    const { context } = toolContext(root, { settings: { killGraceMs: 200 } });
    const result = await tool.execute({ command: `sleep ${seconds} & echo started` }, context);
    expect(textOf(result)).toContain('started');
    expect(await processesMatching(`sleep ${seconds}`)).toEqual([]);
  });

  it('keeps memory bounded for seq 1 10000000: head + tail in the result, everything in the spill file', async () => {
    const root = await temporaryWorkspace();
    const { context, updates } = toolContext(root);
    let peak = 0;
    const baseline = process.memoryUsage().arrayBuffers;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
    }, 20);
    const result = await Promise.resolve(tool.execute({ command: 'seq 1 10000000' }, context)).finally(() => clearInterval(sampler));
    const content = structured<{ truncated: boolean; totalBytes: number; outputFile: string; output: string }>(result);
    expect(content.truncated).toBe(true);
    expect(content.totalBytes).toBe(78888897);
    expect(content.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(content.output.endsWith('9999999\n10000000\n')).toBe(true);
    expect(content.output.length).toBeLessThan(40 * 1024);
    expect((await stat(content.outputFile)).size).toBe(78888897);
    await rm(content.outputFile);
    expect(peak).toBeLessThan(64 * 1024 * 1024);
    const streamed = updates.reduce((sum, update) => sum + (update.type === 'shell-output-delta' ? String(update.event.text).length : 0), 0);
    expect(streamed).toBeLessThan(300 * 1024);
  });

  it('decodes binary and invalid UTF-8 output lossily', async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root);
    const result = await tool.execute({ command: "printf 'ok \\377\\376 end'; head -c 200000 /dev/urandom" }, context);
    const output = structured<{ output: string; truncated: boolean }>(result).output;
    expect(output.startsWith('ok \uFFFD\uFFFD end')).toBe(true);
    expect(structured(result).truncated).toBe(true);
  });

  it('starts background commands, logs their output and kills them when the run aborts', async () => {
    const root = await temporaryWorkspace();
    const seconds = marker();
    const { context, controller } = toolContext(root, { settings: { killGraceMs: 200 } });
    const result = await tool.execute({ command: `echo started; sleep ${seconds} & echo second`, is_background: true }, context);
    const { backgroundId, logFile } = structured<{ backgroundId: string; logFile: string }>(result);
    expect(backgroundId).toMatch(/^bg-/);
    expect(await waitFor(async () => (await readFile(logFile, 'utf8')).includes('second'))).toBe(true);
    // The `&` job keeps running after the shell printed everything.
    expect(await waitFor(async () => (await processesMatching(`sleep ${seconds}`)).length > 0)).toBe(true);
    const viaCat = textOf(await tool.execute({ command: `cat ${logFile}` }, toolContext(root).context));
    expect(viaCat).toContain('started');
    controller.abort();
    expect(await waitFor(async () => (await processesMatching(`sleep ${seconds}`)).length === 0)).toBe(true);
  });
});
