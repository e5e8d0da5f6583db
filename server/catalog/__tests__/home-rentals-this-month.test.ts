import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeRentalsThisMonthCsv } from '../../../scripts/generate-home-rentals-this-month';
import { DEMO_DIR } from '../demo-data';

describe('demo table home_rentals_this_month', () => {
  it('is exactly what the seeded generator script writes', () => {
    expect(homeRentalsThisMonthCsv()).toBe(
      readFileSync(path.join(DEMO_DIR, 'home_rentals_this_month.csv'), 'utf8'),
    );
  });
});
