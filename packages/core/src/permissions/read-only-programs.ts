import type { OptionSpec, ParsedArguments } from './option-parser.js';
import type { ShellWord } from './shell-words.js';

/**
 * One program of the read-only list. Every word of a call must be understood: its options are
 * listed exactly (anything else, abbreviations included, is "not known to be read-only"), and
 * `operands` says which operand forms are harmless.
 */
export interface ReadOnlyProgram {
  /** The options known to be read-only; `any` only for programs where no option can run code or write. */
  options?: OptionSpec | 'any';
  /** Why a known, dangerous option is refused: gives the model a precise reason. */
  refused?: Readonly<Record<string, string>>;
  /** Checks the parsed call (operand count, option values); returns why it is not read-only. */
  check?: (parsed: ParsedArguments) => string | undefined;
  /** Replaces option parsing for programs with their own syntax (find, sed, awk, git, test, printf, xxd). */
  custom?: (words: ShellWord[]) => string | undefined;
  /**
   * True when no option or operand can make the program run code or write a file, so words that come
   * from expansions or globs are harmless (a file named `--pre=sh` cannot become a dangerous option).
   */
  anyArguments?: boolean;
}

const help = ['--help', '--version'];
const harmless = (spec: OptionSpec): ReadOnlyProgram => ({ options: spec, anyArguments: true });
const checksum = harmless({ flags: 'bctwz', long: ['--binary', '--check', '--tag', '--text', '--zero', '--ignore-missing', '--quiet', '--status', '--strict', '--warn', ...help] });
const grep = harmless({
  flags: 'EFGPiywxzsvVcLloqbHhnTZaIrRU',
  valued: 'efmABCdD',
  numeric: true,
  long: [
    '--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--ignore-case', '--no-ignore-case', '--word-regexp', '--line-regexp',
    '--null-data', '--no-messages', '--invert-match', '--count', '--files-without-match', '--files-with-matches', '--only-matching', '--quiet', '--silent',
    '--byte-offset', '--with-filename', '--no-filename', '--line-number', '--initial-tab', '--null', '--text', '--recursive', '--dereference-recursive',
    '--line-buffered', '--binary', ...help,
  ],
  longValued: ['--regexp', '--file', '--max-count', '--label', '--after-context', '--before-context', '--context', '--binary-files', '--devices', '--directories', '--exclude', '--exclude-from', '--exclude-dir', '--include'],
  longOptional: ['--color', '--colour'],
});

/** Programs that only read, with the option forms known to be read-only. */
export const simpleReadOnlyPrograms: Record<string, ReadOnlyProgram> = {
  ls: harmless({
    flags: 'aAbBcCdDfFgGhHikLlmnNopqQrRsStuUvxXZ1',
    valued: 'ITw',
    long: [
      '--all', '--almost-all', '--author', '--escape', '--ignore-backups', '--directory', '--dired', '--file-type', '--full-time', '--group-directories-first',
      '--no-group', '--human-readable', '--si', '--dereference-command-line', '--dereference-command-line-symlink-to-dir', '--inode', '--kibibytes',
      '--dereference', '--numeric-uid-gid', '--literal', '--hide-control-chars', '--show-control-chars', '--quote-name', '--recursive', '--reverse', '--size',
      '--context', '--zero', ...help,
    ],
    longValued: ['--block-size', '--format', '--hide', '--ignore', '--indicator-style', '--quoting-style', '--sort', '--tabsize', '--time', '--time-style', '--width'],
    longOptional: ['--color', '--hyperlink', '--classify'],
  }),
  cat: harmless({ flags: 'AbeEnstTuv', long: ['--show-all', '--number-nonblank', '--show-ends', '--number', '--squeeze-blank', '--show-tabs', '--show-nonprinting', ...help] }),
  head: harmless({ flags: 'qvz', valued: 'cn', numeric: true, long: ['--quiet', '--silent', '--verbose', '--zero-terminated', ...help], longValued: ['--bytes', '--lines'] }),
  tail: harmless({
    flags: 'fFqvz',
    valued: 'cns',
    numeric: true,
    long: ['--retry', '--quiet', '--silent', '--verbose', '--zero-terminated', ...help],
    longValued: ['--bytes', '--lines', '--max-unchanged-stats', '--pid', '--sleep-interval'],
    longOptional: ['--follow'],
  }),
  wc: harmless({ flags: 'clmwL', long: ['--bytes', '--chars', '--lines', '--words', '--max-line-length', ...help], longValued: ['--files0-from', '--total'] }),
  pwd: harmless({ flags: 'LP', long: ['--logical', '--physical', ...help] }),
  echo: { options: 'any', anyArguments: true },
  true: { options: 'any', anyArguments: true },
  false: { options: 'any', anyArguments: true },
  whoami: harmless({ long: help }),
  id: harmless({ flags: 'agGnruzZ', long: ['--context', '--group', '--groups', '--name', '--real', '--user', '--zero', ...help] }),
  uname: harmless({ flags: 'asnrvmpio', long: ['--all', '--kernel-name', '--nodename', '--kernel-release', '--kernel-version', '--machine', '--processor', '--hardware-platform', '--operating-system', ...help] }),
  stat: harmless({ flags: 'Lft', valued: 'c', long: ['--dereference', '--file-system', '--terse', ...help], longValued: ['--format', '--printf', '--cached'] }),
  du: harmless({
    flags: 'abcDhHklLmPsSxX0',
    valued: 'Bdt',
    long: ['--all', '--apparent-size', '--bytes', '--total', '--dereference-args', '--human-readable', '--inodes', '--count-links', '--dereference', '--separate-dirs', '--si', '--summarize', '--one-file-system', '--null', '--no-dereference', ...help],
    longValued: ['--block-size', '--max-depth', '--threshold', '--time-style', '--exclude', '--exclude-from', '--files0-from'],
    longOptional: ['--time'],
  }),
  df: harmless({
    flags: 'ahHiklPT',
    valued: 'Btx',
    long: ['--all', '--human-readable', '--si', '--inodes', '--local', '--no-sync', '--sync', '--portability', '--print-type', '--total', ...help],
    longValued: ['--block-size', '--type', '--exclude-type'],
    longOptional: ['--output'],
  }),
  realpath: harmless({ flags: 'eELmPqsz', long: ['--canonicalize-existing', '--canonicalize-missing', '--logical', '--physical', '--quiet', '--strip', '--no-symlinks', '--zero', ...help], longValued: ['--relative-to', '--relative-base'] }),
  readlink: harmless({ flags: 'efmnqsvz', long: ['--canonicalize', '--canonicalize-existing', '--canonicalize-missing', '--no-newline', '--quiet', '--silent', '--verbose', '--zero', ...help] }),
  basename: harmless({ flags: 'az', valued: 's', long: ['--multiple', '--zero', ...help], longValued: ['--suffix'] }),
  dirname: harmless({ flags: 'z', long: ['--zero', ...help] }),
  cmp: harmless({ flags: 'bls', valued: 'in', long: ['--print-bytes', '--verbose', '--quiet', '--silent', ...help], longValued: ['--ignore-initial', '--bytes'] }),
  nl: harmless({ flags: 'p', valued: 'bdfhilnsvw', long: ['--no-renumber', ...help], longValued: ['--body-numbering', '--section-delimiter', '--footer-numbering', '--header-numbering', '--line-increment', '--join-blank-lines', '--number-format', '--number-separator', '--starting-line-number', '--number-width'] }),
  cut: harmless({ flags: 'nsz', valued: 'bcdf', long: ['--complement', '--only-delimited', '--zero-terminated', ...help], longValued: ['--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'] }),
  tr: harmless({ flags: 'cCdst', long: ['--complement', '--delete', '--squeeze-repeats', '--truncate-set1', ...help] }),
  rev: harmless({ long: help }),
  tac: harmless({ flags: 'br', valued: 's', long: ['--before', '--regex', ...help], longValued: ['--separator'] }),
  paste: harmless({ flags: 'sz', valued: 'd', long: ['--serial', '--zero-terminated', ...help], longValued: ['--delimiters'] }),
  comm: harmless({ flags: '123z', long: ['--check-order', '--nocheck-order', '--total', '--zero-terminated', ...help], longValued: ['--output-delimiter'] }),
  fold: harmless({ flags: 'bs', valued: 'w', long: ['--bytes', '--spaces', ...help], longValued: ['--width'] }),
  column: harmless({ flags: 'tnxeJLdR', valued: 'cslNoHOTEWrip', long: ['--table', '--fillrows', '--json', '--keep-empty-lines', ...help], longValued: ['--output-width', '--separator', '--output-separator', '--table-columns', '--table-name'] }),
  expand: harmless({ flags: 'i', valued: 't', long: ['--initial', ...help], longValued: ['--tabs'] }),
  seq: harmless({ flags: 'w', valued: 'fs', numeric: true, long: ['--equal-width', ...help], longValued: ['--format', '--separator'] }),
  sleep: harmless({ long: help }),
  which: harmless({ flags: 'as' }),
  type: harmless({ flags: 'afptP' }),
  cd: harmless({ flags: 'LPe@' }),
  printenv: harmless({ flags: '0', long: ['--null', ...help] }),
  md5sum: checksum, sha1sum: checksum, sha224sum: checksum, sha256sum: checksum, sha384sum: checksum, sha512sum: checksum, b2sum: checksum,
  base64: harmless({ flags: 'di', valued: 'w', long: ['--decode', '--ignore-garbage', ...help], longValued: ['--wrap'] }),
  od: harmless({ flags: 'abcdfilosvx', valued: 'AjNSt', optionalAttached: 'w', long: ['--output-duplicates', '--traditional', ...help], longValued: ['--address-radix', '--skip-bytes', '--read-bytes', '--format', '--endian'], longOptional: ['--strings', '--width'] }),
  hexdump: harmless({ flags: 'bcCdovx', valued: 'efnsL', long: ['--one-byte-octal', '--one-byte-char', '--canonical', '--two-bytes-decimal', '--two-bytes-octal', '--no-squeezing', '--two-bytes-hex', ...help], longValued: ['--format', '--format-file', '--length', '--skip'], longOptional: ['--color'] }),
  strings: harmless({ flags: 'afw', valued: 'ntesT', numeric: true, long: ['--all', '--print-file-name', '--include-all-whitespace', ...help], longValued: ['--bytes', '--radix', '--encoding', '--target', '--output-separator'] }),
  diff: harmless({
    flags: 'abBcdeEfilnNpPqrstTuvwyZ',
    valued: 'CDFILSUWxX',
    long: [
      '--normal', '--brief', '--report-identical-files', '--ed', '--rcs', '--side-by-side', '--left-column', '--suppress-common-lines', '--show-c-function',
      '--expand-tabs', '--initial-tab', '--suppress-blank-empty', '--new-file', '--unidirectional-new-file', '--ignore-case', '--ignore-tab-expansion',
      '--ignore-trailing-space', '--ignore-space-change', '--ignore-all-space', '--ignore-blank-lines', '--text', '--strip-trailing-cr', '--minimal',
      '--speed-large-files', '--recursive', '--no-dereference', '--ignore-file-name-case', '--no-ignore-file-name-case', ...help,
    ],
    longValued: [
      '--show-function-line', '--label', '--width', '--tabsize', '--ignore-matching-lines', '--exclude', '--exclude-from', '--starting-file', '--from-file',
      '--to-file', '--horizon-lines', '--ifdef', '--line-format', '--old-line-format', '--new-line-format', '--unchanged-line-format', '--old-group-format',
      '--new-group-format', '--changed-group-format', '--unchanged-group-format', '--palette',
    ],
    longOptional: ['--color', '--context', '--unified'],
  }),
  grep, egrep: grep, fgrep: grep,
  // jq's language has no way to run programs or write files, and none of its options adds one.
  jq: { options: 'any', anyArguments: true },
  // procps ps takes BSD-style options without a dash (`ps aux`); none runs code or writes.
  ps: { options: 'any', anyArguments: true },
  file: {
    options: { flags: 'bcdEhikLlNnrsSvz0', valued: 'efFmP', long: ['--brief', '--checking-printout', '--keep-going', '--dereference', '--no-dereference', '--no-pad', '--no-buffer', '--raw', '--special-files', '--no-sandbox', '--uncompress', '--uncompress-noreport', '--print0', '--mime', '--mime-type', '--mime-encoding', '--apple', '--extension', ...help], longValued: ['--exclude', '--exclude-quiet', '--files-from', '--separator', '--magic-file', '--parameter'] },
    refused: { '-C': 'file -C compiles a magic file and writes it', '--compile': 'file --compile writes a compiled magic file', '-p': 'file -p changes access times' },
  },
  date: {
    options: { flags: 'uR', valued: 'dfr', optionalAttached: 'I', long: ['--utc', '--universal', '--rfc-email', '--debug', ...help], longValued: ['--date', '--file', '--reference', '--rfc-3339'], longOptional: ['--iso-8601'] },
    refused: { '-s': 'date -s sets the system clock', '--set': 'date --set sets the system clock' },
    // `date MMDDhhmm` sets the clock too; only `+FORMAT` operands print.
    check: (parsed) => (parsed.operands.every((operand) => operand.startsWith('+')) ? undefined : 'date with an operand that is not +FORMAT sets the system clock'),
  },
  hostname: {
    options: { flags: 'aAdfiIsy', long: ['--alias', '--all-fqdns', '--domain', '--fqdn', '--long', '--ip-address', '--all-ip-addresses', '--short', '--yp', '--nis', ...help] },
    check: (parsed) => (parsed.operands.length === 0 ? undefined : 'hostname NAME changes the host name'),
  },
  uniq: {
    options: { flags: 'cdDiuz', valued: 'fsw', long: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated', ...help], longValued: ['--skip-fields', '--skip-chars', '--check-chars'], longOptional: ['--all-repeated', '--group'] },
    // `uniq INPUT OUTPUT` writes OUTPUT, and `-` counts as an INPUT: `uniq - FILE` overwrites FILE.
    check: (parsed) => (parsed.operands.length <= 1 ? undefined : 'uniq INPUT OUTPUT writes the second operand'),
  },
  sort: {
    options: {
      flags: 'bdfgiMhnRrVcCmsuz',
      valued: 'ktS',
      long: ['--ignore-leading-blanks', '--dictionary-order', '--ignore-case', '--general-numeric-sort', '--ignore-nonprinting', '--month-sort', '--human-numeric-sort', '--numeric-sort', '--random-sort', '--reverse', '--version-sort', '--merge', '--stable', '--unique', '--zero-terminated', '--debug', ...help],
      longValued: ['--key', '--field-separator', '--buffer-size', '--parallel', '--sort', '--random-source', '--files0-from'],
      longOptional: ['--check'],
    },
    refused: { '-o': 'sort -o writes a file', '--output': 'sort --output writes a file', '-T': 'sort -T writes temporary files into a folder', '--temporary-directory': 'sort writes temporary files there', '--compress-program': 'sort --compress-program runs a program' },
  },
  tree: {
    options: {
      flags: 'adlfxRqNQpugshDFvtcUrSnCAXJi',
      valued: 'LPIHT',
      long: ['--gitignore', '--ignore-case', '--matchdirs', '--metafirst', '--prune', '--info', '--noreport', '--si', '--du', '--inodes', '--device', '--dirsfirst', '--filesfirst', '--nolinks', ...help],
      longValued: ['--charset', '--filelimit', '--timefmt', '--sort', '--hintro', '--houtro'],
    },
    refused: { '-o': 'tree -o writes its output to a file', '--fromfile': 'tree --fromfile reads the listing from files' },
  },
  rg: {
    options: {
      flags: 'iSsvwxFcnNlLqHhoaUPpIbu0.',
      valued: 'ABCefgmMtTEjrd',
      long: [
        '--ignore-case', '--case-sensitive', '--smart-case', '--invert-match', '--word-regexp', '--line-regexp', '--fixed-strings', '--count', '--count-matches',
        '--files-with-matches', '--files-without-match', '--follow', '--line-number', '--no-line-number', '--only-matching', '--quiet', '--unrestricted',
        '--with-filename', '--no-filename', '--no-heading', '--heading', '--hidden', '--no-ignore', '--no-ignore-vcs', '--no-ignore-dot', '--no-ignore-global',
        '--no-ignore-parent', '--no-ignore-exclude', '--no-ignore-files', '--no-messages', '--text', '--byte-offset', '--pretty', '--multiline', '--multiline-dotall',
        '--pcre2', '--null', '--null-data', '--json', '--files', '--vimgrep', '--column', '--no-column', '--trim', '--stats', '--sort-files', '--one-file-system',
        '--crlf', '--no-config', '--binary', '--no-binary', '--passthru', '--debug', '--trace', '--type-list', '--no-unicode', '--line-buffered', '--block-buffered',
        '--glob-case-insensitive', '--include-zero', '--max-columns-preview', '--no-require-git', ...help,
      ],
      longValued: [
        '--after-context', '--before-context', '--context', '--regexp', '--file', '--glob', '--iglob', '--max-count', '--max-columns', '--type', '--type-not',
        '--encoding', '--threads', '--replace', '--max-depth', '--max-filesize', '--sort', '--sortr', '--color', '--colors', '--path-separator',
        '--context-separator', '--field-match-separator', '--field-context-separator', '--type-add', '--type-clear', '--ignore-file', '--engine',
      ],
    },
    refused: { '--pre': 'rg --pre runs a program on every file', '--pre-glob': 'rg --pre-glob selects files for a --pre program', '-z': 'rg -z runs decompression programs', '--search-zip': 'rg --search-zip runs decompression programs', '--hostname-bin': 'rg --hostname-bin runs a program' },
  },
  fd: {
    options: {
      flags: 'HIsigFalLpu01q',
      valued: 'dteEcjSo',
      long: ['--hidden', '--no-ignore', '--no-ignore-vcs', '--case-sensitive', '--ignore-case', '--glob', '--regex', '--fixed-strings', '--absolute-path', '--list-details', '--follow', '--full-path', '--print0', '--quiet', '--unrestricted', '--prune', '--one-file-system', ...help],
      longValued: ['--max-depth', '--min-depth', '--exact-depth', '--type', '--extension', '--exclude', '--color', '--threads', '--size', '--owner', '--changed-within', '--changed-before', '--max-results', '--base-directory', '--path-separator', '--search-path', '--ignore-file', '--format'],
    },
    refused: { '-x': 'fd -x runs a program for every result', '--exec': 'fd --exec runs a program', '-X': 'fd -X runs a program', '--exec-batch': 'fd --exec-batch runs a program' },
  },
};
