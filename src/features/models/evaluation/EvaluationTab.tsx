/**
 * The model page's Evaluation tab: a presenter's questions, each a section (leaderboard,
 * threshold and cost, calibration, interval audit, where it is wrong, for whom) over held-out
 * evidence the version kept at training. Sections that do not apply say why. The threshold and
 * payoff being looked at are shared by the sections and the exported card. What the presenter
 * looks at lives in the URL's `eval=` key (eval-url.ts), so Share and reload open the same view.
 */
import { useQuery } from '@tanstack/react-query';
import { useUrlState } from '../../../lib/use-url-state';
import { QueryState } from '../../../components/ui/QueryState';
import { TabList } from '../../../components/ui/TabList';
import type { EvaluationSummary } from '../../../../contract/evaluation';
import type { ModelTabProps } from '../shared';
import { CalibrationPanel } from './quality/CalibrationPanel';
import { GroupsPanel } from './slices/GroupsPanel';
import { IntervalsPanel } from './quality/IntervalsPanel';
import { LeaderboardPanel } from './quality/LeaderboardPanel';
import { SlicesPanel } from './slices/SlicesPanel';
import { ThresholdPanel } from './threshold/ThresholdPanel';
import type { PayoffText } from './threshold/threshold-model';
import { evalUrlCodec, type EvalUrlState } from './eval-url';
import { cardUrl, type EvaluationTarget, evaluationSummaryQuery } from './api';
import { chosenSection, defaultGroupColumn, type EvalSection, evalSections } from './eval-tabs';
import './evaluation.css';

const NO_PARAMS: Readonly<Record<string, string | undefined>> = {};

export function EvaluationTab({
  project,
  model,
  version,
  activeVersion,
  theme,
  nav,
  params = NO_PARAMS,
}: ModelTabProps) {
  const target: EvaluationTarget = { project, model, version };
  const summary = useQuery(evaluationSummaryQuery(target));
  const [state, setState] = useUrlState(
    { params, key: 'eval', write: nav.replaceParams },
    evalUrlCodec,
  );
  const set =
    <K extends keyof EvalUrlState>(k: K) =>
    (v: EvalUrlState[K]) =>
      setState((s) => ({ ...s, [k]: v }));
  const { section: asked, threshold, group: groupColumn, payoff } = state;
  const setAsked = set('section') as (v: EvalSection) => void;
  const setThreshold = set('threshold');
  const setGroupColumn = set('group') as (v: string) => void;
  const setPayoff = set('payoff') as (v: PayoffText) => void;
  const tab = (s: EvaluationSummary) => {
    if (!s.available)
      return (
        <p className="muted" role="status">
          {s.reason ?? 'This version kept no held-out evidence: retrain it to see its evaluation.'}
        </p>
      );
    const sections = evalSections(s);
    const section = chosenSection(s, asked);
    const shown = sections.find((x) => x.id === section)!;
    const column = groupColumn ?? defaultGroupColumn(s);
    const payoffText: PayoffText = payoff ?? {
      tp: s.saved?.payoff ? String(s.saved.payoff.tp) : '',
      fp: s.saved?.payoff ? String(s.saved.payoff.fp) : '',
      tn: s.saved?.payoff ? String(s.saved.payoff.tn) : '',
      fn: s.saved?.payoff ? String(s.saved.payoff.fn) : '',
      currency: s.saved?.currency ?? '',
      positiveName: '',
      negativeName: '',
    };
    const binary = s.task === 'binary';
    const held = s.held_out;
    return (
      <div className="ev-tab">
        <div className="m-toolbar ev-toolbar">
          <span className="muted small">
            {held
              ? `${held.rows.toLocaleString('en-US')} held-out rows${
                  held.total > held.rows
                    ? ` (a ${held.sample} sample of ${held.total.toLocaleString('en-US')})`
                    : ''
                }, ${held.validation === 'cross-fitted' ? 'cross-fitted' : held.validation === 'time-split' ? 'the latest period' : 'kept from training'}`
              : ''}
          </span>
          <span className="spacer" />
          <a
            className="btn small"
            href={cardUrl(target, {
              groups: column ? [column] : [],
              threshold: binary && threshold !== null ? threshold : undefined,
            })}
            download
          >
            Export model card with this evaluation
          </a>
        </div>
        <TabList
          tabs={sections}
          selected={section}
          onSelect={setAsked}
          label="Evaluation"
          className="segmented ev-sections"
          idPrefix="ev"
        />
        <div
          id={`ev-panel-${section}`}
          role="tabpanel"
          aria-labelledby={`ev-tab-${section}`}
          className="ev-panel"
        >
          {!shown.applies ? (
            <p className="muted" role="status">
              {shown.reason}
            </p>
          ) : section === 'leaderboard' ? (
            <LeaderboardPanel target={target} />
          ) : section === 'threshold' ? (
            <ThresholdPanel
              target={target}
              baseVersion={version ?? activeVersion}
              threshold={threshold}
              onThreshold={setThreshold}
              payoffText={payoffText}
              onPayoffText={setPayoff}
              theme={theme}
            />
          ) : section === 'calibration' ? (
            <CalibrationPanel target={target} theme={theme} />
          ) : section === 'intervals' ? (
            <IntervalsPanel
              target={target}
              columns={s.columns}
              theme={theme}
              column={state.intervals ?? ''}
              onColumn={(c) => set('intervals')(c || null)}
            />
          ) : section === 'slices' ? (
            <SlicesPanel
              target={target}
              onOpenSql={(sql) => nav.openSql(sql)}
              asked={state.where ?? undefined}
              onAsk={(w) => set('where')(w)}
            />
          ) : (
            <GroupsPanel
              target={target}
              columns={s.columns}
              column={column}
              onColumn={setGroupColumn}
              threshold={binary && threshold !== null ? threshold : undefined}
            />
          )}
        </div>
      </div>
    );
  };
  return (
    <QueryState
      query={summary}
      loading="Loading the evaluation…"
      error="Could not load the evaluation"
    >
      {tab}
    </QueryState>
  );
}
