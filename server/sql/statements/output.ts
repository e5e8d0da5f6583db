/**
 * What every statement handler takes and gives back. Kept out of statements/index.ts (the table
 * of handlers) so that the handlers do not import the module that imports them.
 */
import type { PlannedQuery } from '../plan/steps';
import type { StatementSource } from '../syntax/source';
import type { Tokens } from '../syntax/tokens';
import type { ExecContext, SqlResult } from '../types';

export interface StatementInput {
  src: StatementSource;
  tokens: Tokens;
  ctx: ExecContext;
}

/** A statement's result, computed already, or a query for the service to run (or stream). */
export type StatementOutput =
  | { kind: 'result'; result: SqlResult; db?: string }
  | { kind: 'query'; planned: PlannedQuery; catalogChanged?: boolean };

export const ok = (affected: number | null = null, catalogChanged = false): StatementOutput => ({
  kind: 'result',
  result: {
    type: 'ok',
    affected_rows: affected,
    ...(catalogChanged ? { catalog_changed: true } : {}),
  },
});
