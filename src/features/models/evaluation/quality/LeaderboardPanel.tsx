/**
 * Leaderboard: every candidate the AutoML trained, best first, with which one serves; another can
 * be made to serve (a new version, so the current one stays and can serve again). The model's
 * warnings are carried here, and a better score from a leaky model is called suspect.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { modelKeys } from '../../../../api/keys';
import type { Leaderboard } from '../../../../../contract/evaluation';
import { Card } from '../../../../components/ui/Card';
import { QueryState } from '../../../../components/ui/QueryState';
import { formatNumber, formatSeconds, metricLabel } from '../../shared';
import { RankingCaveat } from '../../warnings';
import { type EvaluationTarget, leaderboardQuery, serveMutation } from '../api';
import { formatBytes, formatSpeed, leaderboardTable, scoreNote } from './leaderboard-model';

export function LeaderboardPanel({ target }: { target: EvaluationTarget }) {
  const q = useQuery(leaderboardQuery(target));
  return (
    <QueryState query={q} loading="Loading the candidates…" error="Could not load the leaderboard">
      {(board) => <Candidates board={board} target={target} />}
    </QueryState>
  );
}

function Candidates({ board, target }: { board: Leaderboard; target: EvaluationTarget }) {
  const qc = useQueryClient();
  const serve = useMutation({
    ...serveMutation(target),
    onSuccess: () =>
      qc.invalidateQueries({ queryKey: modelKeys.detail(target.project, target.model) }),
  });
  const t = leaderboardTable(board);
  return (
    <Card title="Which candidate won" label="Leaderboard">
      <p className="muted">
        Every candidate the AutoML trained, scored on held-out rows none of them trained on, best
        first by {metricLabel(t.metric)}. Making another serve trains a new version; this one stays.
      </p>
      <RankingCaveat models={[{ name: 'Every candidate', warnings: board.warnings }]} />
      <div className="ev-scroll">
        <table className="m-table ev-leaderboard">
          <caption className="ev-sr-only">Candidates, best score first</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Candidate</th>
              <th scope="col">{metricLabel(t.metric)}</th>
              {t.otherMetric && <th scope="col">{metricLabel(t.otherMetric)}</th>}
              <th scope="col">Fit time</th>
              <th scope="col">Predict speed</th>
              <th scope="col">Size</th>
              <th scope="col">Note</th>
              <th scope="col">
                <span className="ev-sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {t.rows.map((r) => {
              const note = scoreNote(r, t);
              return (
                <tr key={r.name} className={r.serves ? 'active' : undefined}>
                  <td className="num">{r.rank}</td>
                  <th scope="row">{r.name}</th>
                  <td className="num">{formatNumber(r.score)}</td>
                  {t.otherMetric && <td className="num">{formatNumber(r.other)}</td>}
                  <td className="num">{formatSeconds(r.fitSeconds)}</td>
                  <td className="num">{formatSpeed(r.rowsPerSecond)}</td>
                  <td className="num">{formatBytes(r.sizeBytes)}</td>
                  <td className={note.includes('suspect') ? 'ev-warn-text' : undefined}>{note}</td>
                  <td>
                    {!r.serves && r.using && (
                      <button
                        type="button"
                        className="btn small"
                        disabled={serve.isPending}
                        onClick={() => serve.mutate(r.using!)}
                        aria-label={`Make ${r.name} serve`}
                      >
                        Make it serve
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {serve.isError && <p role="alert">{serve.error.message}</p>}
      {serve.data && (
        <p role="status">
          Version {serve.data.version} is training with {serve.variables}; it serves once complete
          (the model page shows its progress).
        </p>
      )}
    </Card>
  );
}
