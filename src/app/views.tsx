/**
 * Main views, chosen by URL state (`#view=<id>`). The SQL workspace is the default.
 * MODEL PAGE SLOT: `features/models` will provide the model page (create, predict, describe);
 * register it here as the `models` view, replacing the placeholder below.
 */
import type { ReactNode } from 'react';

export interface ViewDef {
  id: string;
  label: string;
}

export const VIEWS: ViewDef[] = [
  { id: 'sql', label: 'SQL' },
  { id: 'models', label: 'Models' },
];

export function ModelsPlaceholder({ onOpenSql }: { onOpenSql(): void }): ReactNode {
  return (
    <section className="placeholder-view" aria-label="Models">
      <h2>Models</h2>
      <p className="muted">
        The model page (create a model from a table, watch training, predict with a form, describe
        the model) is coming here. Meanwhile, models can be created and queried from SQL:
      </p>
      <pre>{`CREATE MODEL mindsdb.home_rentals_model
FROM example_db (SELECT * FROM demo_data.home_rentals)
PREDICT rental_price;

SELECT status FROM mindsdb.models WHERE name = 'home_rentals_model';`}</pre>
      <button className="btn primary" onClick={onOpenSql}>
        Open the SQL editor
      </button>
    </section>
  );
}
