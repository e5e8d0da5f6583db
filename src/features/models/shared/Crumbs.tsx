/** The breadcrumb above a models page's title: a way back to the list, then where we are. */
import type { ReactNode } from 'react';

export function Crumbs({ onHome, children }: { onHome(): void; children: ReactNode }) {
  return (
    <div className="m-crumbs">
      <button className="link" onClick={onHome}>
        Models
      </button>
      <span aria-hidden> / </span>
      <span>{children}</span>
    </div>
  );
}
