import { describe, expect, it } from 'vitest';
import { forecasterLabel } from './forecaster-label';

describe('forecasterLabel', () => {
  it('names every candidate the engine can select in words', () => {
    expect(forecasterLabel('ensemble')).toBe('Average of the forecasters that tied in validation');
    expect(forecasterLabel('ets')).toBe('Exponential smoothing (ETS)');
    expect(forecasterLabel('seasonal_naive')).toBe('Repeat last season');
    expect(forecasterLabel('tsb')).toBe('Intermittent demand (TSB)');
  });
  it('shows an unknown one without underscores', () => {
    expect(forecasterLabel('some_new_model')).toBe('some new model');
  });
});
