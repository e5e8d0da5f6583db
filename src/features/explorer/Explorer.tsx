/**
 * Explorer sidebar: databases -> schemas -> tables -> columns, projects -> models (status badges)
 * and views. Children load when a node opens. As in the SQL tools people know, a click selects a
 * node (and opens or closes it); inserting its name into the editor is explicit: double-click, drag
 * it into the editor, or its Insert action.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useState, type DragEvent, type ReactNode } from 'react';
import {
  databasesQueryOptions,
  modelsQueryOptions,
  tableColumnsQueryOptions,
  tablesQueryOptions,
} from '../../api/catalog';
import {
  quoteIdent,
  type DatabaseInfo,
  type ModelInfo,
  type TableInfo,
} from '../../api/catalog-parse';
import { catalogKeys } from '../../api/keys';
import { SQL_NAME_MIME } from '../../lib/drag';
import {
  groupBySchema,
  projectModels,
  selectStarSql,
  sortDatabases,
  tableRef,
} from './explorer-tree';
import { statusTone } from '../../components/ui/status-tone';

interface Props {
  onInsert(text: string): void;
  onQuery(sql: string): void;
}

/** Model actions the shell may offer: open a model's page, create a model from a table. */
export interface ExplorerModelActions {
  onOpenModel?(project: string, model: string): void;
  onCreateModel?(table: { db: string; schema?: string; table: string }): void;
}
const ModelActions = createContext<ExplorerModelActions>({});

/** The selected node (one for the whole tree) and how to insert a node's name. */
interface TreeState {
  selected: string | null;
  select(id: string): void;
  insert(text: string): void;
}
const Tree = createContext<TreeState>({ selected: null, select: () => {}, insert: () => {} });

export function Explorer({
  onInsert,
  onQuery,
  onOpenModel,
  onCreateModel,
  headerActions,
}: Props & ExplorerModelActions & { headerActions?: ReactNode }) {
  const qc = useQueryClient();
  const dbs = useQuery(databasesQueryOptions());
  const [selected, select] = useState<string | null>(null);
  return (
    <div className="explorer">
      <div className="panel-header">
        <span>Explorer</span>
        <span className="spacer" />
        {headerActions}
        <button
          className="icon-btn"
          aria-label="Refresh explorer"
          title="Refresh"
          onClick={() => void qc.invalidateQueries({ queryKey: catalogKeys.all })}
        >
          ⟳
        </button>
      </div>
      <ModelActions.Provider value={{ onOpenModel, onCreateModel }}>
        <Tree.Provider value={{ selected, select, insert: onInsert }}>
          <div className="tree" role="tree" aria-label="Databases">
            {dbs.isPending && <div className="tree-note">Loading databases…</div>}
            {dbs.isError && (
              <div className="tree-note error" role="alert">
                Could not list databases: {dbs.error.message}
              </div>
            )}
            {dbs.data?.length === 0 && <div className="tree-note">No databases.</div>}
            {dbs.data &&
              sortDatabases(dbs.data).map((d) => (
                <DatabaseNode key={d.name} db={d} onQuery={onQuery} />
              ))}
          </div>
        </Tree.Provider>
      </ModelActions.Provider>
    </div>
  );
}

function Node({
  id,
  level,
  label,
  icon,
  open,
  onToggle,
  insertText,
  title,
  badge,
  actions,
  children,
  detail,
}: {
  /** Unique in the tree (the node's path). */
  id: string;
  level: number;
  label: string;
  icon: string;
  open?: boolean;
  onToggle?: () => void;
  /** The SQL name double-click, drag and the Insert action put into the editor. */
  insertText?: string;
  title?: string;
  badge?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  detail?: string;
}) {
  const tree = useContext(Tree);
  const isSelected = tree.selected === id;
  const onDragStart = (e: DragEvent) => {
    if (!insertText) return;
    e.dataTransfer.setData('text/plain', insertText);
    e.dataTransfer.setData(SQL_NAME_MIME, insertText);
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <div
      role="treeitem"
      aria-level={level}
      aria-expanded={onToggle ? !!open : undefined}
      aria-selected={isSelected}
      aria-label={label}
      className="tree-item"
    >
      <div
        className={`tree-row${isSelected ? ' selected' : ''}`}
        style={{ paddingLeft: 6 + (level - 1) * 14 }}
      >
        {onToggle ? (
          <button
            className="chevron"
            aria-label={`${open ? 'Collapse' : 'Expand'} ${label}`}
            onClick={onToggle}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="chevron-space" />
        )}
        <span className={`node-icon icon-${icon}`} aria-hidden />
        <button
          className="node-label"
          title={title ?? (insertText ? `${label} · double-click or drag to insert` : label)}
          draggable={!!insertText}
          onDragStart={onDragStart}
          onClick={() => {
            tree.select(id);
            onToggle?.();
          }}
          onDoubleClick={() => insertText && tree.insert(insertText)}
        >
          {label}
        </button>
        {detail && <span className="node-detail">{detail}</span>}
        {badge}
        <span className="node-actions">
          {actions}
          {insertText && (
            <button
              className="hover-action"
              aria-label={`Insert ${insertText}`}
              title="Insert at the editor's cursor (or double-click, or drag into the editor)"
              onClick={() => {
                tree.select(id);
                tree.insert(insertText);
              }}
            >
              +
            </button>
          )}
        </span>
      </div>
      {open && children && <div role="group">{children}</div>}
    </div>
  );
}

type QueryProps = Pick<Props, 'onQuery'>;

function DatabaseNode({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const [open, setOpen] = useState(false);
  return (
    <Node
      id={`db:${db.name}`}
      level={1}
      label={db.name}
      icon={db.type === 'project' ? 'project' : db.type === 'system' ? 'system' : 'db'}
      detail={db.type === 'project' ? 'project' : (db.engine ?? undefined)}
      open={open}
      onToggle={() => setOpen(!open)}
      insertText={quoteIdent(db.name)}
    >
      {open &&
        (db.type === 'project' ? (
          <ProjectChildren db={db} onQuery={onQuery} />
        ) : (
          <DatabaseChildren db={db} onQuery={onQuery} />
        ))}
    </Node>
  );
}

function DatabaseChildren({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const tables = useQuery(tablesQueryOptions(db.name));
  if (tables.isPending)
    return (
      <div className="tree-note" style={{ paddingLeft: 34 }}>
        Loading…
      </div>
    );
  if (tables.isError)
    return (
      <div className="tree-note error" style={{ paddingLeft: 34 }}>
        {tables.error.message}
      </div>
    );
  const groups = groupBySchema(tables.data);
  if (groups.length === 0)
    return (
      <div className="tree-note" style={{ paddingLeft: 34 }}>
        No tables
      </div>
    );
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
    <Node
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
    </Node>
  );
}

function TableNode({ table, level, onQuery }: { table: TableInfo; level: number } & QueryProps) {
  const [open, setOpen] = useState(false);
  const ref = tableRef(table);
  const { onCreateModel } = useContext(ModelActions);
  return (
    <Node
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
    </Node>
  );
}

function ColumnList({ table, level }: { table: TableInfo; level: number }) {
  const cols = useQuery(tableColumnsQueryOptions(table.db, table.schema, table.name));
  const pad = { paddingLeft: 6 + level * 14 };
  if (cols.isPending)
    return (
      <div className="tree-note" style={pad}>
        Loading…
      </div>
    );
  if (cols.isError)
    return (
      <div className="tree-note error" style={pad}>
        {cols.error.message}
      </div>
    );
  if (cols.data.length === 0)
    return (
      <div className="tree-note" style={pad}>
        No column information
      </div>
    );
  return (
    <>
      {cols.data.map((c) => (
        <Node
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

function ProjectChildren({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const tables = useQuery(tablesQueryOptions(db.name));
  const models = useQuery(modelsQueryOptions(db.name));
  const { onOpenModel } = useContext(ModelActions);
  const list: ModelInfo[] = projectModels(db.name, models.data, tables.data ?? []);
  const views = (tables.data ?? []).filter((t) => t.kind === 'view' || t.kind === 'table');
  const pad = { paddingLeft: 34 };
  return (
    <>
      <Node
        id={`models:${db.name}`}
        level={2}
        label="models"
        icon="folder"
        open
        insertText={`${quoteIdent(db.name)}.models`}
        title="The models table of this project · double-click or drag to insert"
      >
        {(tables.isPending || models.isPending) && list.length === 0 ? (
          <div className="tree-note" style={{ paddingLeft: 48 }}>
            Loading…
          </div>
        ) : list.length === 0 ? (
          <div className="tree-note" style={{ paddingLeft: 48 }}>
            No models yet
          </div>
        ) : (
          list.map((m) => (
            <Node
              key={m.name}
              id={`model:${m.project}.${m.name}`}
              level={3}
              label={m.name}
              icon="model"
              insertText={`${quoteIdent(m.project)}.${quoteIdent(m.name)}`}
              title={
                m.error ? `Error: ${m.error}` : m.predict ? `Predicts ${m.predict}` : undefined
              }
              badge={<span className={`badge badge-${statusTone(m.status)}`}>{m.status}</span>}
              actions={
                <>
                  {onOpenModel && (
                    <button
                      className="hover-action"
                      aria-label={`Open model page of ${m.project}.${m.name}`}
                      title="Open the model page (status, describe, predict)"
                      onClick={() => onOpenModel(m.project, m.name)}
                    >
                      ◉
                    </button>
                  )}
                  <button
                    className="hover-action"
                    aria-label={`DESCRIBE ${m.project}.${m.name}`}
                    title="DESCRIBE"
                    onClick={() =>
                      onQuery(`DESCRIBE ${quoteIdent(m.project)}.${quoteIdent(m.name)};`)
                    }
                  >
                    ▶
                  </button>
                </>
              }
            />
          ))
        )}
      </Node>
      {views.map((t) => (
        <TableNode key={t.name} table={t} level={2} onQuery={onQuery} />
      ))}
      {tables.isError && (
        <div className="tree-note error" style={pad}>
          {tables.error.message}
        </div>
      )}
    </>
  );
}
