import { describe, expect, it } from 'vitest';
import { instanceFlavor } from './flavor';

describe('instanceFlavor', () => {
  it('tells our instance from a real MindsDB server by GET /api/status', () => {
    expect(instanceFlavor({ provider: 'sql-model-playground', version: '0.1.0' })).toBe(
      'playground',
    );
    expect(instanceFlavor({ mindsdb_version: '25.1.2', environment: 'local' })).toBe('mindsdb');
    expect(instanceFlavor({ version: '1' })).toBe('unknown');
    expect(instanceFlavor(undefined)).toBe('unknown');
  });
});
