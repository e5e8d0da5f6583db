import { describe, expect, it } from 'vitest';
import { statusTone } from './status-tone';

describe('statusTone', () => {
  it('maps model statuses to badge tones', () => {
    expect(['complete', 'training', 'generating', 'error', 'unknown'].map(statusTone)).toEqual([
      'ok',
      'busy',
      'busy',
      'error',
      'idle',
    ]);
  });
});
