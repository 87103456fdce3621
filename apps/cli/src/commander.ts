import { createRequire } from 'node:module';

/**
 * commander, loaded with require(): it is a CommonJS package, and importing it as ESM makes Node
 * parse it a second time to find its exports (cjs-module-lexer) through its ESM wrapper. require()
 * skips both, about 7 ms of the ~25 ms `cairn --help` adds to Node's own start-up. Every file of the
 * CLI takes commander's values from here; one ESM import of 'commander' elsewhere would undo it.
 */
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Argument, Command, InvalidArgumentError, Option } = commander;
