/**
 * "Did you mean": an unknown column, table, function or model gets the closest name the instance
 * knows in its error message, over the real HTTP endpoint (REST users read the same words as the
 * playground), and only when the name is close enough to be a typo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../../errors';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

async function errorOf(query: string): Promise<string> {
  const r = await h.sql(query);
  expect(r.type).toBe('error');
  return r.error_message as string;
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  // The model only has to exist for its name to be known; it need not finish training.
  const r = await h.sql(
    'CREATE MODEL mindsdb.rent_model FROM example_db (SELECT sqft, rental_price FROM demo_data.home_rentals LIMIT 40) PREDICT rental_price',
  );
  expect(r.type).not.toBe('error');
});

afterAll(async () => {
  await h?.close();
});

describe('closestName', () => {
  it('picks the nearest known name within a third of its length, case-insensitively', () => {
    expect(closestName('locaton', ['sqft', 'location', 'neighborhood'])).toBe('location');
    expect(closestName('LOCATOIN', ['location'])).toBe('location');
    expect(closestName('foo', ['location', 'sqft'])).toBeUndefined();
    expect(closestName('sqft', ['sqft'])).toBeUndefined();
    expect(didYouMean('sqtf', ['sqft'])).toBe(' Did you mean "sqft"?');
    expect(didYouMean('price', ['sqft'])).toBe('');
  });
});

describe('unknown names over HTTP', () => {
  it('suggests the column for a misspelt column, bare or qualified', async () => {
    expect(await errorOf('SELECT locaton FROM example_db.demo_data.home_rentals')).toMatch(
      /Referenced column "locaton" not found.* Did you mean "location"\? \(line 1, column 8\)$/,
    );
    expect(await errorOf('SELECT h.sqtf FROM example_db.demo_data.home_rentals h')).toContain(
      'Did you mean "sqft"?',
    );
  });

  it('suggests the table and the function', async () => {
    expect(await errorOf('SELECT * FROM example_db.demo_data.home_rental')).toContain(
      'Did you mean "home_rentals"?',
    );
    expect(await errorOf('SELECT sqrtt(4)')).toContain('Did you mean "sqrt"?');
  });

  it('suggests the model in SELECT, DESCRIBE and DROP', async () => {
    expect(await errorOf('SELECT * FROM mindsdb.rent_modl')).toContain(
      'Did you mean "rent_model"?',
    );
    expect(await errorOf('DESCRIBE MODEL mindsdb.rent_mode')).toContain(
      'Did you mean "rent_model"?',
    );
    expect(await errorOf('DROP MODEL mindsdb.rnt_model')).toMatch(
      /^Model 'mindsdb\.rnt_model' does not exist\. Did you mean "rent_model"\?$/,
    );
  });

  it('suggests nothing for a name far from every known one', async () => {
    const msg = await errorOf('SELECT zzzz FROM example_db.demo_data.home_rentals');
    expect(msg).toMatch(/Referenced column "zzzz" not found/);
    expect(msg).not.toContain('Did you mean');
  });
});
