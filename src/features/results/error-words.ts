/**
 * An SQL error in words for the results banner: what kind of problem and where as the headline,
 * the closest known name the instance suggested, and the engine's own text kept for whoever wants
 * it. Pure, so the wording is tested without a browser.
 */
import type { ErrorPosition } from '../../../contract';

export interface ErrorWords {
  /** "Unknown column "locaton" at line 1, column 8". */
  headline: string;
  /** The name the instance suggested ("Did you mean "location"?"), if any. */
  suggestion?: string;
  /** The engine's message as sent, for those who want it. */
  detail: string;
}

const QUOTED = String.raw`["']?([^"' ]+?)["']?`;

/** The kind of missing thing a message names, and the name. */
const UNKNOWN: [RegExp, string][] = [
  [new RegExp(String.raw`Referenced column ${QUOTED} not found`), 'column'],
  [new RegExp(String.raw`does not have a column named ${QUOTED}(?:$|[ !])`), 'column'],
  [new RegExp(String.raw`Model ${QUOTED} does not exist`), 'model'],
  [new RegExp(String.raw`schema ${QUOTED} does not exist`), 'schema'],
  [new RegExp(String.raw`Table with name ${QUOTED} does not exist`), 'table'],
  [new RegExp(String.raw`^Table ${QUOTED} does not exist`), 'table'],
  [new RegExp(String.raw`Function with name ${QUOTED} does not exist`), 'function'],
  [new RegExp(String.raw`(?:Catalog|Database) ${QUOTED} does not exist`), 'database'],
  [new RegExp(String.raw`Project ${QUOTED} does not exist`), 'project'],
  [new RegExp(String.raw`View ${QUOTED} does not exist`), 'view'],
];

/** The headline for each error code (server/errors.ts ERROR_CODES) when the text says no more. */
const KINDS: Record<number, string> = {
  1: 'Syntax error',
  2: 'Something the query names does not exist',
  3: 'Invalid value or argument',
  4: 'The model is not ready yet',
  5: 'The query was stopped (timeout or cancel)',
  6: 'Too large',
  7: 'It exists already',
  8: 'Sign-in required',
  9: 'The instance is busy; try again',
  10: 'Not allowed here',
  99: 'Internal error in the instance',
};

function kindOf(code: number, message: string): string {
  for (const [re, what] of UNKNOWN) {
    const m = re.exec(message);
    if (m) return `Unknown ${what} "${m[1].split('.').pop()}"`;
  }
  if (code === 1) {
    const near = /at or near "([^"]*)"/.exec(message);
    if (near) return `Syntax error near "${near[1]}"`;
    if (/at end of input/.test(message)) return 'Syntax error: the statement ends too early';
  }
  if (/^Conversion Error/.test(message)) return 'A value cannot be converted to the type needed';
  if (/Division by zero/i.test(message)) return 'Division by zero';
  return KINDS[code] ?? 'The query failed';
}

export function errorWords(
  code: number,
  message: string,
  position: ErrorPosition | undefined,
): ErrorWords {
  const where = position ? ` at line ${position.line}, column ${position.column}` : '';
  const suggestion = /Did you mean "([^"]+)"\?/.exec(message)?.[1];
  return {
    headline: kindOf(code, message) + where,
    ...(suggestion ? { suggestion } : {}),
    detail: message,
  };
}
