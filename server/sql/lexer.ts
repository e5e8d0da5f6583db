/** Quoting for SQL the instance generates, re-exported where older modules import it from. */
export { quoteIdent, quoteString } from '../engine/quote';
export { lineColumn } from '../engine/position';
