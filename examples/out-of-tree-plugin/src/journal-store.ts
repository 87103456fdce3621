import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentStore, composeStore, createMemoryStore, type RunEvent, type RunRecord } from '@cairn/core';

/** One line of the journal: a run row as written, or the events appended to a run. */
export type JournalLine = { kind: 'run'; record: RunRecord } | { kind: 'events'; runId: string; events: RunEvent[] };

/** The journal's file name inside its folder. */
export const journalFileName = 'journal.ndjson';

/**
 * A store that keeps everything in memory and journals every run row and run event to
 * `<dir>/journal.ndjson`, e.g. for an audit trail. Built from public parts: the memory store's
 * four substores, with runs and run events wrapped, put together by `composeStore`.
 */
export function createJournalStore(dir: string): AgentStore {
  const memory = createMemoryStore();
  const file = join(dir, journalFileName);
  // Appends are chained so lines land in the order the runtime wrote them.
  let written: Promise<void> = mkdir(dir, { recursive: true }).then(() => undefined);
  const journal = (line: JournalLine): Promise<void> => {
    written = written.then(() => appendFile(file, `${JSON.stringify(line)}\n`));
    return written;
  };
  return composeStore({
    agents: memory.agents,
    checkpoints: memory.checkpoints,
    runs: {
      ...memory.runs,
      async create(record) {
        await memory.runs.create(record);
        await journal({ kind: 'run', record });
      },
      async update(runId, patch) {
        const record = await memory.runs.update(runId, patch);
        await journal({ kind: 'run', record });
        return record;
      },
    },
    runEvents: {
      ...memory.runEvents,
      async append(runId, events) {
        const result = await memory.runEvents.append(runId, events);
        await journal({ kind: 'events', runId, events });
        return result;
      },
    },
    ...(memory.approvals ? { approvals: memory.approvals } : {}),
    // Memory is per process.
    shared: false,
  });
}
