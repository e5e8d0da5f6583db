/** The create form's second card: the column to predict, the project and the model's name. */
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/Card';
import type { FieldError } from './field-error';

interface Props {
  columns: { name: string; dataType?: string | null }[] | undefined;
  columnsError: Error | null;
  target: string;
  targetType: string | null | undefined;
  onTarget(target: string): void;
  projects: string[];
  project: string;
  onProject(project: string): void;
  name: string;
  onName(name: string): void;
  err: FieldError;
  /** The optional clauses (time series, USING) under the fields. */
  children?: ReactNode;
}

export function TargetFields(p: Props) {
  return (
    <Card title="2. What to predict" label="Target">
      <div className="m-form-rows">
        <label>
          <span>Target column</span>
          <select
            aria-label="Target column"
            value={p.target}
            onChange={(e) => p.onTarget(e.target.value)}
          >
            <option value="">
              {p.columns ? '— choose the column to predict —' : 'Choose the data first'}
            </option>
            {p.columns?.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
                {c.dataType ? ` (${c.dataType})` : ''}
              </option>
            ))}
          </select>
          {p.targetType && (
            <span className="muted small">
              {/(INT|DOUBLE|FLOAT|DECIMAL|REAL|NUMERIC)/i.test(p.targetType)
                ? 'Numeric: a regression with prediction intervals (unless it has few distinct values, then a classifier).'
                : 'Text/boolean: a classifier with class probabilities.'}
            </span>
          )}
          {p.columnsError && <span className="m-hint error">{p.columnsError.message}</span>}
          {p.err('target')}
        </label>
        <label>
          <span>Project</span>
          <select
            aria-label="Project"
            value={p.project}
            onChange={(e) => p.onProject(e.target.value)}
          >
            {p.projects.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Model name</span>
          <input
            aria-label="Model name"
            value={p.name}
            onChange={(e) => p.onName(e.target.value)}
          />
          {p.err('name')}
        </label>
      </div>
      {p.children}
    </Card>
  );
}
