/**
 * The columns a prediction answers with, named and typed as the wire and SQL show them: the
 * model's inputs, then `<target>`, `<target>_confidence`, `_min` / `_max` (numeric targets),
 * `_anomaly`, `_original`, `_explain`.
 */
import type { ModelDescription } from '../../automl/index';
import { inputKind, targetKind, type ValueKind } from './casting';

/** The SQL types of the columns the model layer produces. */
type ColumnType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

export interface OutputColumn {
  name: string;
  type: ColumnType;
}

export const sqlTypeOfKind = (k: ValueKind): ColumnType =>
  k === 'number' ? 'DOUBLE' : k === 'boolean' ? 'BOOLEAN' : 'VARCHAR';

/**
 * The prediction columns (`<target>`, `_confidence`, ...), in the order the real service uses,
 * named after `name` (`PREDICT target AS name`; the target by default).
 */
export function predictionColumns(desc: ModelDescription, name?: string | null): OutputColumn[] {
  const t = name || desc.target;
  const tt = sqlTypeOfKind(targetKind(desc));
  const cols: OutputColumn[] = [
    { name: t, type: tt },
    { name: `${t}_confidence`, type: 'DOUBLE' },
  ];
  // Intervals exist only for numeric targets (docs/DESIGN.md 3.2).
  if (desc.task === 'regression') {
    cols.push({ name: `${t}_min`, type: 'DOUBLE' }, { name: `${t}_max`, type: 'DOUBLE' });
  }
  cols.push(
    { name: `${t}_anomaly`, type: 'BOOLEAN' },
    { name: `${t}_original`, type: tt },
    { name: `${t}_explain`, type: 'VARCHAR' },
  );
  return cols;
}

/** SQL types of the input columns as they appear in prediction results. */
export function inputColumns(desc: ModelDescription): OutputColumn[] {
  return desc.inputs.map((c) => ({ name: c, type: sqlTypeOfKind(inputKind(desc, c)) }));
}
