/** The project side of the explorer tree: its models (with status badges) and its views. */
import { useQuery } from '@tanstack/react-query';
import { useContext } from 'react';
import { modelsQueryOptions, tablesQueryOptions } from '../../api/catalog';
import { quoteIdent, type DatabaseInfo, type ModelInfo } from '../../api/catalog-parse';
import { statusTone } from '../../components/ui/status-tone';
import { ModelActions, type QueryProps } from './explorer-context';
import { modelTitle, projectModels } from './explorer-tree';
import { TableNode } from './TableNodes';
import { TreeNode, TreeNote } from './TreeNode';

export function ProjectChildren({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const tables = useQuery(tablesQueryOptions(db.name));
  const models = useQuery(modelsQueryOptions(db.name));
  const list: ModelInfo[] = projectModels(db.name, models.data, tables.data ?? []);
  const views = (tables.data ?? []).filter((t) => t.kind === 'view' || t.kind === 'table');
  return (
    <>
      <TreeNode
        id={`models:${db.name}`}
        level={2}
        label="models"
        icon="folder"
        open
        insertText={`${quoteIdent(db.name)}.models`}
        title="The models table of this project · double-click or drag to insert"
      >
        {(tables.isPending || models.isPending) && list.length === 0 ? (
          <TreeNote level={4}>Loading…</TreeNote>
        ) : list.length === 0 ? (
          <TreeNote level={4}>No models yet</TreeNote>
        ) : (
          list.map((m) => <ModelNode key={m.name} m={m} onQuery={onQuery} />)
        )}
      </TreeNode>
      {views.map((t) => (
        <TableNode key={t.name} table={t} level={2} onQuery={onQuery} />
      ))}
      {tables.isError && (
        <TreeNote level={3} error>
          {tables.error.message}
        </TreeNote>
      )}
    </>
  );
}

function ModelNode({ m, onQuery }: { m: ModelInfo } & QueryProps) {
  const { onOpenModel } = useContext(ModelActions);
  return (
    <TreeNode
      id={`model:${m.project}.${m.name}`}
      level={3}
      label={m.name}
      icon="model"
      insertText={`${quoteIdent(m.project)}.${quoteIdent(m.name)}`}
      title={modelTitle(m)}
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
            onClick={() => onQuery(`DESCRIBE ${quoteIdent(m.project)}.${quoteIdent(m.name)};`)}
          >
            ▶
          </button>
        </>
      }
    />
  );
}
