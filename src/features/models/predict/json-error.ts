/**
 * Where to mark a JSON.parse error in the editor: V8 names the offset (`at position 13`, newer
 * engines also `(line 2 column 5)`); an unexpected end is marked at the end of the text.
 */
export interface TextRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * A syntax error: one character at the error (past the end: the last character of the text).
 * Any other error (valid JSON of the wrong shape): the whole text.
 */
export function jsonErrorRange(text: string, message: string): TextRange {
  if (!message.startsWith('Invalid JSON')) {
    const end = lineColumn(text, text.length);
    return { startLine: 1, startColumn: 1, endLine: end.line, endColumn: end.column };
  }
  const m = /\bposition (\d+)/.exec(message);
  let offset = m ? Number(m[1]) : text.length;
  if (offset >= text.length) offset = Math.max(0, text.trimEnd().length - 1);
  const start = lineColumn(text, offset);
  const nextIsNewline = text[offset] === '\n' || offset >= text.length;
  return {
    startLine: start.line,
    startColumn: start.column,
    endLine: start.line,
    endColumn: start.column + (nextIsNewline ? 0 : 1),
  };
}
