import { describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness';
import { timestampText } from '../models-table';

describe('timestampText', () => {
  it('prints an instant the way DuckDB prints a TIMESTAMP', () => {
    expect(timestampText('2026-11-22T01:11:20.630Z')).toBe('2026-11-22 01:11:20.63');
    expect(timestampText('2026-11-22T01:11:20.600Z')).toBe('2026-11-22 01:11:20.6');
    expect(timestampText('2026-11-22T01:11:20.000Z')).toBe('2026-11-22 01:11:20');
    expect(timestampText('2026-11-22T01:11:20.123Z')).toBe('2026-11-22 01:11:20.123');
    expect(timestampText('2026-11-22T01:11:20Z')).toBe('2026-11-22 01:11:20');
  });

  it('matches DuckDB for every millisecond ending', async () => {
    const h = await startHarness();
    try {
      for (const ms of ['000', '100', '120', '123', '630', '005', '050']) {
        const iso = `2026-11-22T01:11:20.${ms}Z`;
        const r = await h.sql(`SELECT CAST('${timestampText(iso)}' AS TIMESTAMP) AS t`);
        expect(r.data[0][0]).toBe(timestampText(iso));
      }
    } finally {
      await h.close();
    }
  });
});
