// JSON files are data, not prose: each leaf value becomes a line "key.path[0].name: value" so a
// search for a key or a value finds it, and leaves are grouped by top-level key (or top-level
// array element) into blocks located by source lines. JSON is parsed strictly: a file with
// comments or trailing commas is not JSON, and the user is told where it breaks.

import { parseTree, printParseErrorCode, type Node, type ParseError as JsonSyntaxError } from 'jsonc-parser';
import type { Location } from '../../../shared/types.ts';
import { decodeText } from './decode.ts';
import { parsedDocument } from './document.ts';
import { ParseError, type Block, type Parser } from './types.ts';

/** Enough to navigate by without letting one huge array bloat the stored item. */
export const MAX_KEY_PATHS = 2000;

type Segment = string | number;

export const jsonParser: Parser = {
  version: 'json@2',
  extensions: ['.json'],
  async parse(bytes) {
    const source = decodeText(bytes);
    if (source.trim() === '') throw new ParseError('invalid JSON: the file is empty');
    const lineOf = lineLocator(source);
    const errors: JsonSyntaxError[] = [];
    const root = withinStack(() =>
      parseTree(source, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false }),
    );
    const error = errors[0];
    if (error !== undefined || root === undefined) {
      const offset = error?.offset ?? 0;
      const { line, column } = lineOf(offset);
      const problem = error === undefined ? 'no value found' : describe(error, source);
      throw new ParseError(`invalid JSON at line ${line}, column ${column}: ${problem}`);
    }

    const keyPaths: string[] = [];
    const blocks: Block[] = [];
    const addGroup = (node: Node, path: Segment[], span: Node, heading: string[]): void => {
      const leaves: string[] = [];
      withinStack(() =>
        collectLeaves(node, path, source, (leafPath, value) => {
          if (keyPaths.length < MAX_KEY_PATHS) keyPaths.push(leafPath);
          leaves.push(leafPath === '' ? value : `${leafPath}: ${value}`);
        }),
      );
      const location: Location = {
        kind: 'lines',
        start: lineOf(span.offset).line,
        end: lineOf(span.offset + Math.max(span.length - 1, 0)).line,
      };
      blocks.push({ kind: 'paragraph', text: leaves.join('\n'), headingPath: heading, location });
    };

    if (root.type === 'object' && root.children?.length) {
      for (const property of root.children) {
        const [key, value] = property.children ?? [];
        if (key === undefined || value === undefined) continue;
        addGroup(value, [String(key.value)], property, [String(key.value)]);
      }
    } else if (root.type === 'array' && root.children?.length) {
      root.children.forEach((element, index) => addGroup(element, [index], element, []));
    } else {
      addGroup(root, [], root, []);
    }

    return parsedDocument({
      title: topLevelTitle(root),
      blocks,
      structure: { headings: [], tables: [], keyPaths },
    });
  },
};

/** Thousands of nested arrays exhaust the stack: the file's shape, not a bug, so a ParseError. */
function withinStack<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw new ParseError('JSON nested too deeply to read');
    throw error;
  }
}

function collectLeaves(node: Node, path: Segment[], source: string, emit: (path: string, value: string) => void): void {
  if (node.type === 'object' && node.children?.length) {
    for (const property of node.children) {
      const [key, value] = property.children ?? [];
      if (key !== undefined && value !== undefined) collectLeaves(value, [...path, String(key.value)], source, emit);
    }
  } else if (node.type === 'array' && node.children?.length) {
    node.children.forEach((element, index) => collectLeaves(element, [...path, index], source, emit));
  } else {
    emit(formatPath(path), formatValue(node, source));
  }
}

/** Dotted path with [n] for indices; keys that are not plain words are quoted so the path stays unambiguous. */
export function formatPath(path: readonly Segment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function formatValue(node: Node, source: string): string {
  switch (node.type) {
    case 'object':
      return '{}';
    case 'array':
      return '[]';
    case 'string':
      // One line per leaf: a multi-line string value is folded onto its line.
      return String(node.value).replace(/\s*[\r\n]+\s*/g, ' ');
    case 'number':
      // The source spelling, so large integers are not rounded by a JS number.
      return source.slice(node.offset, node.offset + node.length);
    default:
      return String(node.value);
  }
}

/** Longer than this, a "name" or "title" value is a description, not the file's title. */
const MAX_TITLE_CHARS = 200;

/**
 * The file's own title, in the words a JSON file usually names itself: a top-level "title" or
 * "name" string (in any letter case, "title" first), else a "title" one object down (OpenAPI's
 * info.title, a metadata.title). A nested "name" is left alone: it usually names something the
 * file is about (an owner, a customer), not the file. An array is a list of records with no title.
 */
export function topLevelTitle(root: Node): string | null {
  if (root.type !== 'object') return null;
  const stringField = (object: Node, name: string): string | null => {
    const property = object.children?.find((p) => String(p.children?.[0]?.value).toLowerCase() === name);
    const value = property?.children?.[1];
    const text = value?.type === 'string' ? String(value.value).replace(/\s+/g, ' ').trim() : '';
    return text !== '' && text.length <= MAX_TITLE_CHARS ? text : null;
  };
  const own = stringField(root, 'title') ?? stringField(root, 'name');
  if (own) return own;
  for (const property of root.children ?? []) {
    const value = property.children?.[1];
    const nested = value?.type === 'object' ? stringField(value, 'title') : null;
    if (nested) return nested;
  }
  return null;
}

const PROBLEMS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon',
  CommaExpected: 'expected a comma',
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the array",
  EndOfFileExpected: 'unexpected content after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'incomplete number',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'control character in a string (it must be escaped)',
};

function describe(error: JsonSyntaxError, source: string): string {
  const name = printParseErrorCode(error.error);
  const closing = source[error.offset];
  if ((closing === '}' || closing === ']') && /,\s*$/.test(source.slice(0, error.offset))) {
    return 'trailing comma (not allowed in JSON)';
  }
  if (error.offset >= source.length && name !== 'UnexpectedEndOfString') {
    return `unexpected end of file (${PROBLEMS[name] ?? name})`;
  }
  return PROBLEMS[name] ?? name;
}

/** Maps a character offset to a 1-based line and column. */
function lineLocator(source: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const ch = source.charCodeAt(i);
    if (ch === 0x0a || (ch === 0x0d && source.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
  }
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}
