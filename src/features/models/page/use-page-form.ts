/**
 * The model page's form state, shared by Predict and What-if so switching tabs loses nothing: the
 * predict rows (a reducer), the what-if sweep, and both in the URL's `form=` key. A link's form
 * fills the rows once the model's fields are known; without one the form starts from a real
 * training row, so Send works right away.
 */
import { useReducer, useState } from 'react';
import { useUrlMirror } from '../../../lib/use-url-state';
import {
  formRows,
  initialSession,
  pageFormCodec,
  predictReducer,
  rowFromRecord,
  type ModelInputs,
  type SweepSettings,
} from '../inputs';
import type { ModelsNav } from '../shared';

export function usePageForm(
  params: Readonly<Record<string, string | undefined>>,
  nav: ModelsNav,
  inputs: ModelInputs,
) {
  // The URL is read once: later writes are this page's own.
  const [initialForm] = useState(() => pageFormCodec.decode(params.form));
  const [session, dispatch] = useReducer(predictReducer(inputs.fields), undefined, () =>
    initialSession(),
  );
  const [sweep, setSweep] = useState<SweepSettings | undefined>(initialForm?.sweep);
  const [restored, setRestored] = useState(!initialForm);
  if (!restored && initialForm && inputs.fields.length > 0) {
    setRestored(true);
    dispatch({
      type: 'replace-rows',
      rows: initialForm.rows.map((r) => rowFromRecord(inputs.fields, r)),
    });
    dispatch({ type: 'select', row: initialForm.selected });
  }
  const [prefilledFrom, setPrefilledFrom] = useState<unknown>(initialForm ? 'link' : null);
  if (
    !initialForm &&
    inputs.example &&
    inputs.fields.length > 0 &&
    prefilledFrom !== inputs.example
  ) {
    setPrefilledFrom(inputs.example);
    const first = session.rows[0];
    const pristine =
      session.rows.length === 1 && Object.keys(first.cells).length === 0 && !session.jsonText;
    if (pristine) {
      dispatch({
        type: 'set-row',
        row: 0,
        value: rowFromRecord(inputs.fields, inputs.example, first.id),
      });
    }
  }
  const ready = initialForm
    ? restored
    : prefilledFrom !== null || (!inputs.loading && !inputs.statsLoading);

  useUrlMirror(
    { params, key: 'form', write: nav.replaceParams },
    pageFormCodec,
    ready && inputs.fields.length > 0
      ? { rows: formRows(session.rows), selected: session.selected, sweep }
      : initialForm,
  );
  return { session, dispatch, sweep, setSweep, ready };
}
