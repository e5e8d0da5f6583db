import { describe, expect, it } from 'vitest';
import { warningTitle } from './warning-text';

describe('warningTitle', () => {
  it('titles the known kinds and makes an unknown kind readable', () => {
    expect(warningTitle('dominant_input')).toBe('One input does nearly all the work');
    expect(warningTitle('class_drift')).toBe('Class drift');
    expect(warningTitle('')).toBe('Warning');
  });
});
