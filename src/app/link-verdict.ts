/**
 * The words the run-on-open dialog uses for the instance's judgement of a shared link's SQL
 * (POST /api/sql/classify): a label per statement and one sentence for the whole script. The
 * judgement itself is the server's; nothing here reads the SQL.
 */
import type { Classification, ClassifiedStatement } from '../../contract';

const LABELS: Record<ClassifiedStatement['effect'], string> = {
  read: 'Reads',
  write: 'Changes data',
  session: 'Sets the session',
  refused: 'Refused by the instance',
  error: 'Would fail',
  unknown: 'Not a query',
};

export function effectLabel(s: ClassifiedStatement): string {
  return `${LABELS[s.effect]} · ${s.kind}`;
}

/** Why the dialog asks, in one sentence. */
export function askReason(verdict: Classification | null): string {
  if (!verdict) {
    return 'The instance could not judge what this SQL does (a MindsDB server has no such check), so nothing runs without your say.';
  }
  const effects = new Set(verdict.statements.map((s) => s.effect));
  if (effects.has('write') || effects.has('unknown')) {
    return 'It is not a read-only query: it may create, change or delete data or models.';
  }
  if (effects.has('refused') || effects.has('error')) {
    return 'The instance would refuse or fail some of it.';
  }
  return 'It only reads, but it is expensive or unusual.';
}
