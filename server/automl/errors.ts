// The engine's one user-facing error type. Callers (the catalog/SQL layers) map it to their
// BAD_INPUT error; anything else thrown from the engine is a bug.

/**
 * A problem with the user's data or options, with a message that says exactly what and where.
 * `column` / `row` (0-based index into the rows given to predict) are set for cast errors so an
 * HTTP layer can point at the offending cell without parsing the message.
 */
export class AutoMLError extends Error {
  readonly column?: string;
  readonly row?: number;

  constructor(message: string, where?: { column?: string; row?: number }) {
    super(message);
    this.name = 'AutoMLError';
    this.column = where?.column;
    this.row = where?.row;
  }
}
