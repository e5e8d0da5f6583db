/** What every node of the explorer tree reads: the selection, name insertion, model actions. */
import { createContext } from 'react';

/** Model actions the shell may offer: open a model's page, create a model from a table. */
export interface ExplorerModelActions {
  onOpenModel?(project: string, model: string): void;
  onCreateModel?(table: { db: string; schema?: string; table: string }): void;
}
export const ModelActions = createContext<ExplorerModelActions>({});

/** The selected node (one for the whole tree) and how to insert a node's name. */
interface TreeState {
  selected: string | null;
  select(id: string): void;
  insert(text: string): void;
}
export const Tree = createContext<TreeState>({
  selected: null,
  select: () => {},
  insert: () => {},
});

/** Runs SQL in the editor (a node's ▶ action). */
export interface QueryProps {
  onQuery(sql: string): void;
}
