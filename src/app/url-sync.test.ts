import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeHash } from './url-state';
import { writeSqlToUrl } from './url-sync';

describe('writeSqlToUrl', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it("writes the SQL view's query and database while the URL shows the SQL view", () => {
    history.replaceState(null, '', '/#view=sql');
    writeSqlToUrl('SELECT 1', 'example_db', 'sql');
    expect(decodeHash(window.location.hash)).toMatchObject({
      view: 'sql',
      sql: 'SELECT 1',
      db: 'example_db',
    });
  });

  it('drops a write meant for the SQL view once the URL moved to another view', () => {
    // A link to a model page opened while the SQL view's debounced write was waiting.
    history.replaceState(null, '', '/#view=model&project=mindsdb&model=m');
    const replaced = vi.fn();
    window.addEventListener('playground:hashreplaced', replaced);
    writeSqlToUrl('SELECT 1', 'example_db', 'sql');
    window.removeEventListener('playground:hashreplaced', replaced);
    expect(decodeHash(window.location.hash)).toMatchObject({
      view: 'model',
      extra: { project: 'mindsdb', model: 'm' },
    });
    expect(replaced).not.toHaveBeenCalled();
  });
});
