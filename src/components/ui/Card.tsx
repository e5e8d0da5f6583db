/** A titled panel (a named region) with optional actions on the right of its title. */
import type { ReactNode, Ref } from 'react';
import './ui.css';

export function Card({
  title,
  actions,
  children,
  className,
  label,
  ref,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  label?: string;
  ref?: Ref<HTMLElement>;
}) {
  return (
    <section ref={ref} className={`card ${className ?? ''}`} aria-label={label}>
      {(title || actions) && (
        <header className="card-header">
          {title && <h3>{title}</h3>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
