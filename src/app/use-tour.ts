/**
 * The guided tour's state in the shell: which step is open, whether this browser has seen the tour
 * (remembered, so the offer turns into "Replay"), and running a step: its SQL in the tour's own
 * editor tab, or the model page with the tour's listing filled in.
 */
import { useState } from 'react';
import { modelUrlParams } from '../features/models/nav';
import { encodeForm } from '../features/models/inputs';
import { planRun, type RunRequest } from '../features/sql-editor/run-plan';
import { activateTab, addTab, updateTab } from '../features/tabs/tab-store';
import { defaultStore, readJson, writeJson } from '../lib/storage';
import { tabStore } from './stores';
import {
  TOUR_LISTING,
  TOUR_MODEL,
  TOUR_PROJECT,
  TOUR_SEEN_KEY,
  TOUR_TAB_TITLE,
  type TourStep,
} from './tour';
import { setView } from './url-sync';

export function useTour(
  view: string,
  runTab: (tabId: string, req: RunRequest) => Promise<unknown>,
) {
  const [step, setStep] = useState<number | null>(null);
  const [seen, setSeen] = useState(() =>
    readJson(defaultStore(), TOUR_SEEN_KEY, (v) => (v === true ? true : undefined), false),
  );
  const start = () => {
    setStep(0);
    setSeen(true);
    writeJson(defaultStore(), TOUR_SEEN_KEY, true);
  };
  const run = (s: TourStep) => {
    if (s.action.kind === 'model-page') {
      const form = encodeForm({ rows: [{ ...TOUR_LISTING }], selected: 0 });
      setView(
        'model',
        { ...modelUrlParams(TOUR_PROJECT, TOUR_MODEL, s.action.tab), ...(form ? { form } : {}) },
        true,
      );
      return;
    }
    const sql = s.action.sql;
    if (view !== 'sql') setView('sql');
    const own = tabStore.get().tabs.find((t) => t.title === TOUR_TAB_TITLE);
    tabStore.set((st) =>
      own
        ? updateTab(activateTab(st, own.id), own.id, { sql })
        : addTab(st, { sql, title: TOUR_TAB_TITLE, db: 'mindsdb' }),
    );
    void runTab(tabStore.get().activeId, planRun(sql, 'script', 0));
  };
  return { step, setStep, seen, start, run };
}
