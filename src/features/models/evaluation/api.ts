/**
 * The evaluation endpoints (GET .../evaluation[/view], POST .../evaluation/serve and /threshold):
 * one fetcher each, parsed with the contract's schemas, with query-option and mutation factories.
 * Keys come from `modelKeys.evaluation`; a saved threshold or a new candidate invalidates the
 * model's details (its versions list and every view).
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  CalibrationView,
  EvaluationSummary,
  GroupsView,
  IntervalsView,
  Leaderboard,
  ModelInfo,
  type SaveThresholdRequest,
  SlicesView,
  ThresholdView,
} from '../../../../contract';
import { requestJson } from '../../../api/http';
import { modelKeys } from '../../../api/keys';

export interface EvaluationTarget {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

const base = ({ project, model, version }: EvaluationTarget) =>
  `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(
    version === undefined ? model : `${model}.${version}`,
  )}/evaluation`;

type Params = Record<string, string | number | undefined>;

function url(t: EvaluationTarget, view: string, params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `${base(t)}${view ? `/${view}` : ''}${qs ? `?${qs}` : ''}`;
}

function viewQuery<S extends z.ZodType>(
  t: EvaluationTarget,
  view: string,
  schema: S,
  params: Params = {},
) {
  return queryOptions({
    queryKey: modelKeys.evaluation(t.project, t.model, t.version, view, params),
    queryFn: ({ signal }) => requestJson(url(t, view, params), schema, { signal }),
    staleTime: 60_000,
  });
}

export const evaluationSummaryQuery = (t: EvaluationTarget) => viewQuery(t, '', EvaluationSummary);
export const leaderboardQuery = (t: EvaluationTarget) => viewQuery(t, 'leaderboard', Leaderboard);
export const thresholdQuery = (t: EvaluationTarget, positive?: string) =>
  viewQuery(t, 'threshold', ThresholdView, { positive });
export const calibrationQuery = (t: EvaluationTarget, positive?: string) =>
  viewQuery(t, 'calibration', CalibrationView, { positive });
export const intervalsQuery = (t: EvaluationTarget, column?: string) =>
  viewQuery(t, 'intervals', IntervalsView, { column });
export const slicesQuery = (t: EvaluationTarget, where?: string) =>
  viewQuery(t, 'slices', SlicesView, { where });
export const groupsQuery = (
  t: EvaluationTarget,
  p: { column: string; threshold?: number; positive?: string },
) => viewQuery(t, 'groups', GroupsView, p);

/** Saves a threshold: a new version (201). */
export const saveThresholdMutation = (t: EvaluationTarget) => ({
  mutationFn: (body: z.infer<typeof SaveThresholdRequest>) =>
    requestJson(`${base(t)}/threshold`, ModelInfo, { method: 'POST', body }),
});

/** Makes another candidate serve: a new version, training (202). */
export const serveMutation = (t: EvaluationTarget) => ({
  mutationFn: (candidate: string) =>
    requestJson(`${base(t)}/serve`, ModelInfo, { method: 'POST', body: { candidate } }),
});

/** The model card's address with what the presenter looked at. */
export function cardUrl(t: EvaluationTarget, o: { groups: string[]; threshold?: number }): string {
  const q = new URLSearchParams({ download: '1' });
  if (o.groups.length) q.set('groups', o.groups.join(','));
  if (o.threshold !== undefined) q.set('threshold', String(o.threshold));
  return `/api/projects/${encodeURIComponent(t.project)}/models/${encodeURIComponent(
    t.version === undefined ? t.model : `${t.model}.${t.version}`,
  )}/card?${q.toString()}`;
}
