/** Whether a model's warnings box is folded, remembered per model across visits. */
import { useState } from 'react';
import { defaultStore, readJson, writeJson } from '../../../lib/storage';

const KEY = 'smp.warnings-folded';

type Folded = Record<string, true>;

const read = (): Folded =>
  readJson<Folded>(
    defaultStore(),
    KEY,
    (v) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Folded) : undefined),
    {},
  );

export function useFolded(model: string): [boolean, (folded: boolean) => void] {
  const [folded, setState] = useState(() => read()[model] === true);
  const set = (next: boolean) => {
    setState(next);
    const all = { ...read() };
    if (next) all[model] = true;
    else delete all[model];
    writeJson(defaultStore(), KEY, all);
  };
  return [folded, set];
}
