import { describe, expect, it } from 'vitest';
import { errorWords } from './error-words';

describe('errorWords', () => {
  it('names the unknown column, where it is, and the suggestion', () => {
    const w = errorWords(
      2,
      'Binder Error: Referenced column "locaton" not found in FROM clause! Did you mean "location"? (line 1, column 8)',
      { line: 1, column: 8 },
    );
    expect(w.headline).toBe('Unknown column "locaton" at line 1, column 8');
    expect(w.suggestion).toBe('location');
    expect(w.detail).toContain('Binder Error');
  });

  it('names tables, models, functions and databases', () => {
    expect(
      errorWords(2, 'Catalog Error: Table with name home_rental does not exist!', undefined)
        .headline,
    ).toBe('Unknown table "home_rental"');
    expect(errorWords(2, `Model 'mindsdb.rent_modl' does not exist`, undefined).headline).toBe(
      'Unknown model "rent_modl"',
    );
    expect(
      errorWords(2, 'Catalog Error: Scalar Function with name __postfix does not exist!', {
        line: 1,
        column: 8,
      }).headline,
    ).toBe('Unknown function "__postfix" at line 1, column 8');
    expect(
      errorWords(2, 'Binder Error: Catalog "exampl_db" does not exist!', undefined).headline,
    ).toBe('Unknown database "exampl_db"');
    expect(
      errorWords(
        2,
        'Catalog Error: Table with name "demo_dat.home_rentals" does not exist because schema "demo_dat" does not exist.',
        undefined,
      ).headline,
    ).toBe('Unknown schema "demo_dat"');
    expect(
      errorWords(2, 'Binder Error: Table "h" does not have a column named "sqtf"', undefined)
        .headline,
    ).toBe('Unknown column "sqtf"');
  });

  it('says syntax errors in words, and falls back to the kind of the code, never "Error 2"', () => {
    expect(
      errorWords(1, 'Parser Error: syntax error at or near "selec"', { line: 2, column: 1 })
        .headline,
    ).toBe('Syntax error near "selec" at line 2, column 1');
    expect(errorWords(1, 'Parser Error: syntax error at end of input', undefined).headline).toBe(
      'Syntax error: the statement ends too early',
    );
    expect(errorWords(4, `Model 'm' is still training`, undefined).headline).toBe(
      'The model is not ready yet',
    );
    expect(errorWords(42, 'Something new', undefined).headline).toBe('The query failed');
    expect(errorWords(2, 'Unknown thing', undefined).suggestion).toBeUndefined();
  });
});
