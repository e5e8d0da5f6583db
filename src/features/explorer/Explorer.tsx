/**
 * Explorer sidebar: databases -> schemas -> tables -> columns, projects -> models (status badges)
 * and views. Children load when a node opens. As in the SQL tools people know, a click selects a
 * node (and opens or closes it); inserting its name into the editor is explicit: double-click, drag
 * it into the editor, or its Insert action. The tree's rows: TreeNode.tsx; the data side:
 * TableNodes.tsx; projects: ProjectNodes.tsx; their words and shapes: explorer-tree.ts.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { databasesQueryOptions } from '../../api/catalog';
import { quoteIdent, type DatabaseInfo } from '../../api/catalog-parse';
import { catalogKeys } from '../../api/keys';
import { ModelActions, Tree, type ExplorerModelActions, type QueryProps } from './explorer-context';
import { databaseLook, sortDatabases } from './explorer-tree';
import { ProjectChildren } from './ProjectNodes';
import { DatabaseChildren } from './TableNodes';
import { TreeNode } from './TreeNode';

export type { ExplorerModelActions };

interface Props extends QueryProps {
  onInsert(text: string): void;
}

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

function DatabaseNode({ db, onQuery }: { db: DatabaseInfo } & QueryProps) {
  const [open, setOpen] = useState(false);
  const { icon, detail } = databaseLook(db);
  return (
    <TreeNode
      id={`db:${db.name}`}
      level={1}
      label={db.name}
      icon={icon}
      detail={detail}
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
    </TreeNode>
  );
}
