/** The data side of the explorer tree: a database's schemas and tables, a table's columns. */
import { useQuery } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import { tableColumnsQueryOptions, tablesQueryOptions } from '../../api/catalog';
import { quoteIdent, type DatabaseInfo, type TableInfo } from '../../api/catalog-parse';
import { ModelActions, type QueryProps } from './explorer-context';
import { groupBySchema, selectStarSql, tableRef } from './explorer-tree';
import { TreeNode, TreeNote } from './TreeNode';

export function DatabaseChildren({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const tables = useQuery(tablesQueryOptions(db.name));
  if (tables.isPending) return <TreeNote level={3}>Loading…</TreeNote>;
  if (tables.isError)
    return (
      <TreeNote level={3} error>
        {tables.error.message}
      </TreeNote>
    );
  const groups = groupBySchema(tables.data);
  if (groups.length === 0) return <TreeNote level={3}>No tables</TreeNote>;
  return (
    <>
      {groups.map((g) =>
        g.schema ? (
          <SchemaNode
            key={g.schema}
            db={db.name}
            schema={g.schema}
            tables={g.tables}
            onQuery={onQuery}
          />
        ) : (
          g.tables.map((t) => <TableNode key={t.name} table={t} level={2} onQuery={onQuery} />)
        ),
      )}
    </>
  );
}

function SchemaNode({
  db,
  schema,
  tables,
  onQuery,
}: { db: string; schema: string; tables: TableInfo[] } & QueryProps) {
  const [open, setOpen] = useState(false);
  return (
    <TreeNode
      id={`schema:${db}.${schema}`}
      level={2}
      label={schema}
      icon="schema"
      open={open}
      onToggle={() => setOpen(!open)}
      insertText={`${quoteIdent(db)}.${quoteIdent(schema)}`}
    >
      {tables.map((t) => (
        <TableNode key={t.name} table={t} level={3} onQuery={onQuery} />
      ))}
    </TreeNode>
  );
}

export function TableNode({
  table,
  level,
  onQuery,
}: { table: TableInfo; level: number } & QueryProps) {
  const [open, setOpen] = useState(false);
  const ref = tableRef(table);
  const { onCreateModel } = useContext(ModelActions);
  return (
    <TreeNode
      id={`table:${ref}`}
      level={level}
      label={table.name}
      icon={table.kind === 'view' ? 'view' : 'table'}
      open={open}
      onToggle={() => setOpen(!open)}
      insertText={ref}
      detail={table.kind === 'view' ? 'view' : undefined}
      actions={
        <>
          {onCreateModel && (
            <button
              className="hover-action"
              aria-label={`Create model from ${ref}`}
              title="Create a model from this table"
              onClick={() =>
                onCreateModel({ db: table.db, schema: table.schema, table: table.name })
              }
            >
              ✦
            </button>
          )}
          <button
            className="hover-action"
            aria-label={`SELECT * FROM ${ref} LIMIT 100`}
            title="SELECT * … LIMIT 100"
            onClick={() => onQuery(selectStarSql(table))}
          >
            ▶
          </button>
        </>
      }
    >
      {open && <ColumnList table={table} level={level + 1} />}
    </TreeNode>
  );
}

function ColumnList({ table, level }: { table: TableInfo; level: number }) {
  const cols = useQuery(tableColumnsQueryOptions(table.db, table.schema, table.name));
  if (cols.isPending) return <TreeNote level={level + 1}>Loading…</TreeNote>;
  if (cols.isError)
    return (
      <TreeNote level={level + 1} error>
        {cols.error.message}
      </TreeNote>
    );
  if (cols.data.length === 0) return <TreeNote level={level + 1}>No column information</TreeNote>;
  return (
    <>
      {cols.data.map((c) => (
        <TreeNode
          key={c.name}
          id={`column:${tableRef(table)}.${c.name}`}
          level={level}
          label={c.name}
          icon="column"
          detail={c.dataType}
          insertText={quoteIdent(c.name)}
        />
      ))}
    </>
  );
}
