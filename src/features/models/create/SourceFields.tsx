/** The create form's first card: where the training data comes from (a table, or a query). */
import { Card } from '../../../components/ui/Card';
import { TabList } from '../../../components/ui/TabList';
import type { FieldError } from './field-error';

interface Props {
  sourceKind: 'table' | 'query';
  onSourceKind(kind: 'table' | 'query'): void;
  dbs: { name: string; engine?: string | null }[];
  db: string;
  onDb(db: string): void;
  tables: { name: string; schema?: string | null; kind: string }[] | undefined;
  tablesLoading: boolean;
  schema: string;
  table: string;
  onTable(next: { schema: string; table: string } | null): void;
  query: string;
  onQuery(query: string): void;
  err: FieldError;
}

const SOURCE_KINDS = [
  { id: 'table', label: 'Table' },
  { id: 'query', label: 'Query' },
] as const;

export function SourceFields(p: Props) {
  const tableKey = p.table ? `${p.schema}\u0000${p.table}` : '';
  return (
    <Card title="1. Training data" label="Training data">
      <TabList
        className="segmented"
        label="Source kind"
        tabs={SOURCE_KINDS}
        selected={p.sourceKind}
        onSelect={p.onSourceKind}
      />
      <div className="m-form-rows">
        <label>
          <span>Database</span>
          <select aria-label="Database" value={p.db} onChange={(e) => p.onDb(e.target.value)}>
            {p.dbs.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
                {d.engine ? ` (${d.engine})` : ''}
              </option>
            ))}
          </select>
          {p.err('db')}
        </label>
        {p.sourceKind === 'table' ? (
          <label>
            <span>Table</span>
            <select
              aria-label="Table"
              value={tableKey}
              onChange={(e) => {
                const [schema, table] = e.target.value.split('\u0000');
                p.onTable(e.target.value ? { schema, table } : null);
              }}
            >
              <option value="">{p.tablesLoading ? 'Loading…' : '— choose a table —'}</option>
              {p.tables
                ?.filter((t) => t.kind === 'table' || t.kind === 'view')
                .map((t) => (
                  <option
                    key={`${t.schema ?? ''}.${t.name}`}
                    value={`${t.schema ?? ''}\u0000${t.name}`}
                  >
                    {t.schema ? `${t.schema}.${t.name}` : t.name}
                  </option>
                ))}
            </select>
            {p.err('table')}
          </label>
        ) : (
          <label>
            <span>Query (runs in {p.db || 'the database'})</span>
            <textarea
              aria-label="Training query"
              className="m-code-input"
              rows={5}
              value={p.query}
              placeholder="SELECT * FROM demo_data.home_rentals WHERE ..."
              onChange={(e) => p.onQuery(e.target.value)}
            />
            {p.err('query')}
          </label>
        )}
      </div>
    </Card>
  );
}
