/** The tone of a model status, for badges: complete (ok), training and its kin (busy), error. */
export function statusTone(status: string): 'ok' | 'busy' | 'error' | 'idle' {
  const s = status.toLowerCase();
  if (s === 'complete') return 'ok';
  if (s === 'error' || s === 'failed') return 'error';
  if (/generating|training|creating|retraining/.test(s)) return 'busy';
  return 'idle';
}
