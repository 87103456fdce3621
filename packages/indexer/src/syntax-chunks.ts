import type { Node } from 'web-tree-sitter';
import { definitionKind, isClassLike } from './languages.js';
import type { Chunk, ChunkKind } from './types.js';

export interface SyntaxChunkOptions {
  /** A chunk grows up to this many characters (~4 characters per token). */
  maxChars?: number;
  /** Siblings smaller than this are merged with their neighbours. */
  minChars?: number;
}

interface Piece {
  start: number;
  end: number;
  symbol?: string;
  kind?: ChunkKind;
  /** Size of the definition this piece is, 0 when it is not one (comments, statements). */
  definitionSize: number;
  /** Names of the members a whole class / interface / enum piece defines. */
  members?: string[];
  /** An exported definition (`export function`, Rust `pub`, a capitalised Go name): never merged with another definition. */
  exported?: boolean;
}

interface Container {
  symbol?: string;
  kind?: ChunkKind;
}

const nameTypes = new Set(['identifier', 'type_identifier', 'property_identifier', 'field_identifier', 'constant', 'name', 'scope_resolution', 'qualified_identifier', 'destructor_name', 'operator_name']);

/** The declared name of a definition node, for the grammars in `languages.ts`. */
function nameOf(node: Node): string | undefined {
  const named = node.childForFieldName('name');
  if (named && node.type === 'method_declaration') {
    // Go: qualify by the receiver's type, `func (s *Store) Get()` -> `Store.Get`.
    const receiver = node.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text;
    if (receiver) return `${receiver}.${named.text}`;
  }
  if (named) return named.text;
  if (node.type === 'impl_item') {
    const type = node.childForFieldName('type')?.text;
    const trait = node.childForFieldName('trait')?.text;
    return type && trait ? `${trait} for ${type}` : type;
  }
  if (node.type === 'type_declaration') {
    const spec = node.namedChildren.find((child) => child?.type === 'type_spec' || child?.type === 'type_alias');
    return spec?.childForFieldName('name')?.text;
  }
  // C / C++: the name sits at the bottom of a declarator chain.
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator && depth < 6; depth++) {
    if (nameTypes.has(declarator.type)) return declarator.text;
    declarator = declarator.childForFieldName('declarator') ?? declarator.namedChildren.find((child) => child !== null && nameTypes.has(child.type)) ?? null;
  }
  return undefined;
}

const memberTypes = [
  'method_definition', 'method_signature', 'abstract_method_signature', 'property_signature', 'public_field_definition',
  'field_definition', 'field_declaration', 'method_declaration', 'function_definition', 'function_item', 'enum_assignment', 'method', 'singleton_method',
];

const memberTypeSet = new Set(memberTypes);

/** Names of the members inside a class-like definition (capped: the column is for names, not bodies). */
function memberNames(node: Node, limit = 60): string[] {
  const names = new Set<string>();
  for (const member of node.descendantsOfType(memberTypes)) {
    const name = member?.childForFieldName('name')?.text;
    if (name && name.length <= 80) names.add(name);
    if (names.size >= limit) break;
  }
  return [...names];
}

/** What a node defines, looking through export / decorator / template wrappers and `const f = () => {}`. */
function describe(node: Node): { kind: ChunkKind; name?: string; node: Node } | undefined {
  const wrapped = node.type === 'export_statement' || node.type === 'decorated_definition' || node.type === 'template_declaration' || node.type === 'ambient_declaration';
  if (wrapped) {
    const inner = node.childForFieldName('declaration') ?? node.childForFieldName('definition') ?? node.namedChildren.at(-1);
    return inner && inner.id !== node.id ? describe(inner) : undefined;
  }
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarator = node.namedChildren.find((child) => child?.type === 'variable_declarator');
    const name = declarator?.childForFieldName('name')?.text;
    const value = declarator?.childForFieldName('value')?.type;
    if (!name) return undefined;
    if (value === 'arrow_function' || value === 'function_expression' || value === 'function') return { kind: 'function', name, node };
    if (value === 'class') return { kind: 'class', name, node };
    return { kind: 'variable', name, node };
  }
  const kind = definitionKind(node.type);
  if (!kind) return undefined;
  const name = nameOf(node);
  return name === undefined ? { kind, node } : { kind, name, node };
}

/** Kinds that keep their own chunk when exported; constants and type aliases are small and merge. */
const standalone = new Set<ChunkKind>(['function', 'class', 'interface', 'enum']);

/** Whether a top-level definition is part of the module's interface. */
function isExported(node: Node, name: string | undefined): boolean {
  if (node.type === 'export_statement') return true;
  if (node.namedChildren.some((child) => child?.type === 'visibility_modifier' && child.text.startsWith('pub'))) return true;
  // Go: a capitalised top-level name is exported.
  return (node.type === 'function_declaration' || node.type === 'method_declaration' || node.type === 'type_declaration') && /^[A-Z]/.test(name?.split('.').at(-1) ?? '') && node.tree.language.name === 'go';
}

/**
 * Cut a syntax tree into chunks at definition boundaries: nodes that fit become pieces, oversized
 * nodes are split by their children (a class into its methods, a function into statement groups),
 * leaves that are still too big by lines; then small neighbours are merged up to the size budget.
 * Pieces are made contiguous so every line of the file belongs to exactly one chunk.
 */
export function syntaxChunks(path: string, lines: string[], root: Node, options: SyntaxChunkOptions = {}): Chunk[] {
  // 2 400 characters (about 600 tokens): the retrieval evaluation hit more targets at chunk level
  // than with 1 800, and more than 60-line windows while returning fewer lines (docs/indexer.md).
  const maxChars = options.maxChars ?? 2400;
  const minChars = options.minChars ?? 530;
  const prefix = new Array<number>(lines.length + 1);
  prefix[0] = 0;
  for (let index = 0; index < lines.length; index++) prefix[index + 1] = (prefix[index] ?? 0) + (lines[index]?.length ?? 0) + 1;
  const size = (start: number, end: number) => (prefix[Math.min(end + 1, lines.length)] ?? 0) - (prefix[start] ?? 0);

  const pieces: Piece[] = [];
  const splitByLines = (start: number, end: number, container: Container) => {
    let from = start;
    while (from <= end) {
      let to = from;
      while (to < end && size(from, to + 1) <= maxChars) to++;
      pieces.push({ start: from, end: to, ...container, definitionSize: 0 });
      from = to + 1;
    }
  };
  const collect = (node: Node, container: Container) => {
    const firstPiece = pieces.length;
    for (const child of node.namedChildren) {
      // Comments are not pieces: the contiguity pass gives them to the definition below them.
      if (!child || child.type.includes('comment')) continue;
      const start = child.startPosition.row;
      const end = Math.min(child.endPosition.row, lines.length - 1);
      if (end < start) continue;
      const described = describe(child);
      let kind = described?.kind;
      if (kind === 'function' && isClassLike(container.kind)) kind = 'method';
      const symbol = described?.name ? (container.symbol && isClassLike(container.kind) ? `${container.symbol}.${described.name}` : described.name) : undefined;
      // Inside a function, nested helpers stay part of it: the chunk is named after the outer function.
      const insideFunction = container.kind === 'function' || container.kind === 'method' || container.kind === 'constructor';
      const own: Container = described && !insideFunction ? { symbol: symbol ?? container.symbol, kind } : container;
      const childSize = size(start, end);
      if (childSize <= maxChars) {
        const piece: Piece = { start, end, ...own, definitionSize: described && own !== container ? childSize : 0 };
        if (piece.definitionSize > 0 && container.kind === undefined && standalone.has(kind ?? 'block') && isExported(child, described?.name)) piece.exported = true;
        // Members by name: the methods and fields of a whole class, or one property of a split interface.
        const members = memberNames(child);
        const ownName = memberTypeSet.has(child.type) ? child.childForFieldName('name')?.text : undefined;
        if (ownName && ownName.length <= 80) members.unshift(ownName);
        if (members.length > 0) piece.members = members;
        pieces.push(piece);
      } else if (child.namedChildCount > 0) {
        // Recurse into the definition itself, not its export/decorator wrapper (which would name it twice).
        collect(described && own !== container ? described.node : child, own);
      } else {
        splitByLines(start, end, own);
      }
    }
    // The container's closing line (`}` / `end`) belongs to its last piece, not to what follows.
    const lastPiece = pieces.length > firstPiece ? pieces[pieces.length - 1] : undefined;
    if (lastPiece) lastPiece.end = Math.max(lastPiece.end, Math.min(node.endPosition.row, lines.length - 1));
  };
  collect(root, {});
  if (pieces.length === 0) return [];

  // Contiguous, non-overlapping: each piece starts right after the previous one (absorbing blank
  // lines and comments above it); a piece swallowed by its predecessor's last line is dropped.
  pieces.sort((left, right) => left.start - right.start || right.end - left.end);
  const contiguous: Piece[] = [];
  let nextStart = 0;
  for (const piece of pieces) {
    if (piece.end < nextStart) continue;
    contiguous.push({ ...piece, start: nextStart });
    nextStart = piece.end + 1;
  }
  const last = contiguous.at(-1);
  if (last) last.end = lines.length - 1;

  const groups: Piece[][] = [];
  let group: Piece[] = [];
  let groupSize = 0;
  // An exported definition keeps its own chunk: merged into a neighbour it would be found under
  // the neighbour's name and range. Statements and private helpers still merge around it.
  const clashes = (members: Piece[], piece: Piece) =>
    piece.definitionSize > 0 && members.some((member) => member.definitionSize > 0 && (member.exported || piece.exported));
  for (const piece of contiguous) {
    const pieceSize = size(piece.start, piece.end);
    if (group.length > 0 && (groupSize < minChars || pieceSize < minChars) && groupSize + pieceSize <= maxChars && !clashes(group, piece)) {
      group.push(piece);
      groupSize += pieceSize;
      continue;
    }
    if (group.length > 0) groups.push(group);
    group = [piece];
    groupSize = pieceSize;
  }
  if (group.length > 0) groups.push(group);

  const chunks: Chunk[] = [];
  for (const members of groups) {
    const first = members[0];
    const lastMember = members.at(-1);
    if (!first || !lastMember) continue;
    const text = lines.slice(first.start, lastMember.end + 1).join('\n');
    if (!text.trim()) continue;
    const main = members.reduce<Piece | undefined>((best, piece) => (piece.definitionSize > (best?.definitionSize ?? 0) ? piece : best), undefined)
      ?? members.find((piece) => piece.symbol !== undefined);
    const chunk: Chunk = { path, startLine: first.start + 1, endLine: lastMember.end + 1, kind: main?.kind ?? 'block', text };
    if (main?.symbol) chunk.symbol = main.symbol;
    // A merged chunk defines several names: all of them go to the weighted symbol column, so a
    // query about a small helper finds the chunk it was merged into.
    const names = [...new Set([main?.symbol, ...members.flatMap((piece) => [piece.symbol, ...(piece.members ?? [])])].filter((name): name is string => name !== undefined))];
    if (names.length > 1) chunk.definedSymbols = names;
    chunks.push(chunk);
  }
  return chunks;
}
