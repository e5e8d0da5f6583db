/**
 * GET .../effects (issue 27): partial dependence with ICE lines for one input or the most
 * important ones, parsed with contract/monitoring.ts; keys from `modelKeys.monitoring`. The server
 * caches curves per version, so the answer is kept long here too.
 */
import { queryOptions } from '@tanstack/react-query';
import { EffectsReport } from '../../../../../contract';
import { requestJson } from '../../../../api/http';
import { modelKeys } from '../../../../api/keys';

export interface EffectsTarget {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

export interface EffectsParams {
  column?: string;
  class?: string;
  top?: number;
}

function effectsUrl({ project, model, version }: EffectsTarget, p: EffectsParams): string {
  const m = version === undefined ? model : `${model}.${version}`;
  const q = new URLSearchParams();
  if (p.column) q.set('column', p.column);
  if (p.class) q.set('class', p.class);
  if (p.top !== undefined) q.set('top', String(p.top));
  const qs = q.toString();
  return `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/effects${qs ? `?${qs}` : ''}`;
}

export const effectsQuery = (t: EffectsTarget, p: EffectsParams = {}) =>
  queryOptions({
    queryKey: modelKeys.monitoring(t.project, t.model, t.version, 'effects', {
      column: p.column,
      class: p.class,
      top: p.top,
    }),
    queryFn: ({ signal }) => requestJson(effectsUrl(t, p), EffectsReport, { signal }),
    staleTime: 10 * 60_000,
  });
