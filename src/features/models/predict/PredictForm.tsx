/** The one-row predict form: a typed field per model input, with an explicit null toggle. */
import type { Dispatch } from 'react';
import { formatPercent } from '../shared';
import {
  cellToJson,
  isEmptyCell,
  type Cell,
  type FormField,
  type FormRow,
  type PredictAction,
} from '../inputs';

interface Props {
  fields: FormField[];
  row: FormRow;
  rowIndex: number;
  dispatch: Dispatch<PredictAction>;
  maxImportance: number;
}

function toDatetimeLocal(v: string): string {
  return v.replace(' ', 'T').slice(0, 16);
}

export function PredictForm({ fields, row, rowIndex, dispatch, maxImportance }: Props) {
  const set = (column: string, value: Cell) =>
    dispatch({ type: 'cell', row: rowIndex, column, value });
  return (
    <div className="m-form" role="group" aria-label="Model inputs">
      {maxImportance > 0 && (
        <p className="m-form-key">
          <span className="m-imp" aria-hidden style={{ ['--w' as string]: '60%' }} /> importance:
          how much the model relies on each input (share of the total)
        </p>
      )}
      {fields.map((f) => {
        const cell = row.cells[f.name];
        const isNull = cell === null;
        const check = cellToJson(f, cell);
        const id = `m-f-${f.name}`;
        const hint = isNull
          ? 'null'
          : check.error
            ? check.error
            : isEmptyCell(cell)
              ? 'empty → sent as null'
              : '';
        return (
          <div key={f.name} className={`m-field ${check.error ? 'invalid' : ''}`}>
            <div className="m-field-head">
              <label htmlFor={id} className="m-field-name">
                {f.name}
              </label>
              <span className="m-type" title={`Feature type: ${f.type}`}>
                {f.type}
              </span>
              {f.importance !== null && maxImportance > 0 && (
                <span
                  className="m-imp-wrap"
                  title={`Importance: ${formatPercent(f.importance)} of what the model relies on`}
                >
                  <span
                    className="m-imp"
                    aria-hidden
                    style={{ ['--w' as string]: `${(f.importance / maxImportance) * 100}%` }}
                  />
                  <span className="m-imp-label">
                    <span className="sr-only">importance </span>
                    {formatPercent(f.importance, 0)}
                  </span>
                </span>
              )}
            </div>
            <div className="m-field-input">
              {f.kind === 'choice' ? (
                <ChoiceInput
                  id={id}
                  field={f}
                  cell={cell}
                  disabled={isNull}
                  onChange={(v) => set(f.name, v)}
                />
              ) : (
                <input
                  id={id}
                  type={
                    f.kind === 'date' ? 'date' : f.kind === 'datetime' ? 'datetime-local' : 'text'
                  }
                  inputMode={f.kind === 'number' ? 'decimal' : undefined}
                  value={
                    isNull || cell === undefined
                      ? ''
                      : f.kind === 'datetime'
                        ? toDatetimeLocal(String(cell))
                        : String(cell)
                  }
                  placeholder={
                    isNull ? 'null' : f.kind === 'number' ? (f.integer ? 'integer' : 'number') : ''
                  }
                  disabled={isNull}
                  aria-invalid={check.error ? true : undefined}
                  aria-describedby={`${id}-hint`}
                  onChange={(e) => set(f.name, e.target.value)}
                />
              )}
              <label className="m-null" title="Send null explicitly">
                <input
                  type="checkbox"
                  aria-label={`${f.name} is null`}
                  checked={isNull}
                  onChange={(e) => set(f.name, e.target.checked ? null : undefined)}
                />
                null
              </label>
            </div>
            <div id={`${id}-hint`} className={`m-hint ${check.error ? 'error' : ''}`}>
              {hint}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function ChoiceInput({
  id,
  field,
  cell,
  disabled,
  onChange,
}: {
  id: string;
  field: FormField;
  cell: Cell;
  disabled: boolean;
  onChange(v: Cell): void;
}) {
  const options = [...field.options];
  const current = cell === null || cell === undefined || cell === '' ? undefined : cell;
  let index = current === undefined ? -1 : options.findIndex((o) => String(o) === String(current));
  if (current !== undefined && index < 0) {
    // A value from JSON or CSV that the training data did not show: keep it selectable.
    options.push(current);
    index = options.length - 1;
  }
  return (
    <select
      id={id}
      value={index < 0 ? '' : String(index)}
      disabled={disabled}
      onChange={(e) =>
        onChange(e.target.value === '' ? undefined : options[Number(e.target.value)])
      }
    >
      <option value="">— empty (null) —</option>
      {options.map((o, i) => (
        <option key={`${i}-${String(o)}`} value={String(i)}>
          {String(o)}
        </option>
      ))}
    </select>
  );
}
