/**
 * The rule for names the instance creates (projects, databases, models): they become DuckDB
 * catalog names and folder names under DATA_DIR, so only plain identifiers are allowed.
 */
import { ERROR_CODES, ServiceError } from '../errors';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function assertValidName(kind: string, name: string): void {
  if (!NAME_RE.test(name)) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Invalid ${kind} name '${name}': use letters, digits and underscores, starting with a letter or underscore (at most 63 characters)`,
    );
  }
}
