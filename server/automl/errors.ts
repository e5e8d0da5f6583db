// The engine's one user-facing error type. Callers (the catalog/SQL layers) map it to their
// BAD_INPUT error; anything else thrown from the engine is a bug.

/** A problem with the user's data or options, with a message that says exactly what and where. */
export class AutoMLError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AutoMLError';
  }
}
