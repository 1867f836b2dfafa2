// Messages between the parse stage (main thread) and its parse threads, in one place so both
// sides agree on them.

import type { ParsedDocument, ParserLimits } from '../../parse/types.ts';

/** Main thread to parse thread: parse these bytes as the named file. */
export interface ParseRequest {
  job: number;
  bytes: Uint8Array;
  fileName: string;
  /** The parsers' own caps (DOCX inflated size, PDF pages); absent ones keep the parsers' defaults. */
  limits: Partial<ParserLimits>;
}

/** Parse thread to main thread. */
export type ParseReply =
  /** The thread has loaded the parsers: a file's time limit starts only once it can be read. */
  | { kind: 'ready' }
  | { kind: 'parsed'; job: number; document: ParsedDocument }
  /** `fileAtFault`: the parser rejected the file (a ParseError), so a retry would fail the same way. */
  | { kind: 'failed'; job: number; message: string; fileAtFault: boolean };
