/**
 * commander's values, from one place. The build bundles commander into the CLI's own chunk
 * (tsup.config.ts, `noExternal`): loading it as a package was seven CommonJS files, and an ESM
 * import of it made Node parse it a second time to find its exports (cjs-module-lexer); bundled,
 * `cairn --help` loads no file of it. Every file of the CLI takes commander's values from here.
 */
export { Argument, Command, InvalidArgumentError, Option } from 'commander';
