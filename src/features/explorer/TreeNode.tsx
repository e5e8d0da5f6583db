/**
 * One row of the explorer tree (a treeitem): chevron, icon, name, detail, badge and hover actions.
 * A click selects it (and opens or closes it); double-click, drag or its + action insert its name.
 */
import { useContext, type DragEvent, type ReactNode } from 'react';
import { SQL_NAME_MIME } from '../../lib/drag';
import { Tree } from './explorer-context';
import { indent, nodeTitle } from './explorer-tree';

export function TreeNode({
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
        style={{ paddingLeft: indent(level) }}
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
          title={nodeTitle(label, insertText, title)}
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

/** A line in the tree that is no node (loading, an error, "No tables"), at a node's indent. */
export function TreeNote({
  level,
  error,
  children,
}: {
  level: number;
  error?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`tree-note${error ? ' error' : ''}`} style={{ paddingLeft: indent(level) }}>
      {children}
    </div>
  );
}
