/**
 * The backdrop of a modal dialog. It has no role of its own (the dialog inside carries the role
 * and the name): a click on the backdrop itself, outside the dialog, is the mouse's way out, and
 * Escape pressed anywhere inside is the keyboard's. Leave either out to keep the dialog open
 * (a question that must be answered, an upload that is running). `DialogHeader` is the dialog's
 * title row with its close button.
 */
import type { HTMLAttributes } from 'react';

/** Other props (drag and drop handlers) go to the backdrop's element. */
interface Props extends Omit<
  HTMLAttributes<HTMLDivElement>,
  'className' | 'onClick' | 'onKeyDown' | 'role'
> {
  onBackdropClick?: () => void;
  onEscape?: () => void;
}

export function Overlay({ onBackdropClick, onEscape, children, ...rest }: Props) {
  return (
    <div
      {...rest}
      className="overlay"
      role="presentation"
      onClick={
        onBackdropClick &&
        ((e) => {
          if (e.target === e.currentTarget) onBackdropClick();
        })
      }
      onKeyDown={
        onEscape &&
        ((e) => {
          if (e.key === 'Escape') onEscape();
        })
      }
    >
      {children}
    </div>
  );
}

/** A dialog's title row: its heading and the × that closes it. */
export function DialogHeader({ title, onClose }: { title: string; onClose(): void }) {
  return (
    <header className="dialog-header">
      <h2>{title}</h2>
      <button className="icon-btn" aria-label="Close" onClick={onClose}>
        ×
      </button>
    </header>
  );
}
