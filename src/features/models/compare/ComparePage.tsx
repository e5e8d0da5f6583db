/**
 * Compare two models, or two versions of one: their metrics side by side (the better one marked),
 * their input importances in one chart, and both models' predictions on the same rows (the first
 * rows of A's training data). Everything is in the URL (`#view=compare&a=p.m[.N]&b=...&rows=`),
 * so Share and reload restore it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { modelsQueryOptions } from '../../../api/catalog';
import { useUrlState, type UrlCodec } from '../../../lib/use-url-state';
import { Crumbs, type ModelsNav } from '../shared';
import {
  compareMetrics,
  formatModelRef,
  otherModelToCompare,
  parseModelRef,
  refLabel,
  sameRef,
  type ModelRef,
} from './compare';
import { CompareImportances } from './CompareImportances';
import { MetricsCard } from './MetricsCard';
import { ModelPicker } from './ModelPicker';
import { COMPARE_ROW_CHOICES, PredictionsCard } from './PredictionsCard';
import { useSide } from './use-compare-side';

const DEFAULT_ROWS = 10;

interface Props {
  /** The view's URL keys: `a`, `b` (`project.model[.version]`) and `rows`. */
  params: Readonly<Record<string, string | undefined>>;
  theme: 'light' | 'dark';
  nav: ModelsNav;
}

const refCodec: UrlCodec<ModelRef | undefined> = {
  decode: parseModelRef,
  encode: (ref) => (ref ? formatModelRef(ref) : undefined),
};
const rowsCodec: UrlCodec<number> = {
  decode: (text) => COMPARE_ROW_CHOICES.find((n) => String(n) === text) ?? DEFAULT_ROWS,
  encode: (n) => String(n),
};

export function ComparePage({ params, theme, nav }: Props) {
  // Each pick is written to the URL at once (no history entry), so Share and reload restore it.
  const url = (key: string) => ({ params, key, write: nav.replaceParams, debounceMs: 0 });
  const [refA, setA] = useUrlState(url('a'), refCodec);
  const [refB, setB] = useUrlState(url('b'), refCodec);
  const [rowCount, setRowCount] = useUrlState(url('rows'), rowsCodec);
  const A = useSide(refA);
  const B = useSide(refB);

  // Without B: another version of A's model if it has one, else another model of A's project.
  const siblings = useQuery({
    ...modelsQueryOptions(refA?.project ?? ''),
    enabled: !!refA && !refB,
  });
  useEffect(() => {
    if (!refA || refB || A.versions.length === 0) return;
    const shown = A.chosen?.version;
    const other = [...A.versions]
      .reverse()
      .find((v) => v.status === 'complete' && v.version !== shown);
    if (other) {
      setB({ ...refA, version: other.version });
      return;
    }
    const model = otherModelToCompare(siblings.data ?? [], refA.model, A.chosen?.predict);
    if (model) setB({ project: refA.project, model: model.name });
  }, [refA, refB, A.versions, A.chosen, siblings.data, setB]);

  const metrics = useMemo(() => compareMetrics(A.describe, B.describe), [A.describe, B.describe]);
  const labelA = refA ? refLabel(refA, A.chosen?.version) : 'A';
  const labelB = refB ? refLabel(refB, B.chosen?.version) : 'B';
  const same = refA && refB && refA.project === refB.project && refA.model === refB.model;
  const nameA = same ? `v${A.chosen?.version ?? '?'}` : labelA;
  const nameB = same ? `v${B.chosen?.version ?? '?'}` : labelB;

  return (
    <div className="m-page m-compare">
      <header className="m-page-header">
        <div>
          <Crumbs onHome={nav.openHome}>Compare</Crumbs>
          <h1>
            Compare {refA ? labelA : '…'} with {refB ? labelB : '…'}
          </h1>
          <p className="muted m-subtitle">
            Metrics, which inputs matter, and predictions on the same rows, side by side.
          </p>
        </div>
      </header>

      <div className="m-compare-pickers">
        <ModelPicker side="A" value={refA} onChange={setA} />
        <ModelPicker side="B" value={refB} onChange={setB} />
      </div>
      {sameRef(refA, refB) && (
        <p className="m-note warn">Both sides are the same model version: pick another for B.</p>
      )}
      {[A, B].map(
        (s, i) =>
          s.error && (
            <div key={i} className="m-error" role="alert">
              {i === 0 ? 'A' : 'B'}: {s.error.message}
            </div>
          ),
      )}
      {[A, B].map(
        (s, i) =>
          s.chosen &&
          s.chosen.status !== 'complete' && (
            <p key={i} className="m-note warn">
              {i === 0 ? labelA : labelB} is {s.chosen.status}: it can be compared once complete.
            </p>
          ),
      )}

      {A.describe && B.describe && (
        <>
          <MetricsCard
            rows={metrics}
            nameA={nameA}
            nameB={nameB}
            warningsA={A.warnings}
            warningsB={B.warnings}
          />
          <CompareImportances
            a={A.describe}
            b={B.describe}
            nameA={nameA}
            nameB={nameB}
            theme={theme}
          />
          {refA && refB && (
            <PredictionsCard
              refA={refA}
              refB={refB}
              A={A}
              B={B}
              nameA={nameA}
              nameB={nameB}
              rowCount={rowCount}
              onRowCount={setRowCount}
            />
          )}
        </>
      )}
      {(A.loading || B.loading) && <p className="muted">Loading…</p>}
    </div>
  );
}
