/**
 * POST /api/projects/{p}/models/{m}/predict. Takes the body as the UI built it and reports back
 * exactly what was sent (absolute URL and body text) for "copy as curl/fetch".
 */
import { mutationOptions } from '@tanstack/react-query';
import { PredictResponse } from '../../../../contract';
import { requestJson } from '../../../api/http';

export interface PredictInput {
  project: string;
  model: string;
  version?: number;
  /** The spec's array of rows or MindsDB's `{"data": [...]}`. */
  body: unknown;
  signal?: AbortSignal;
}

export interface PredictResult {
  rows: PredictResponse;
  url: string;
  bodyText: string;
  elapsedMs: number;
}

function predictPath(project: string, model: string, version?: number): string {
  const m = version === undefined ? model : `${model}.${version}`;
  return `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/predict`;
}

export async function predict({
  project,
  model,
  version,
  body,
  signal,
}: PredictInput): Promise<PredictResult> {
  const path = predictPath(project, model, version);
  const t0 = performance.now();
  const rows = await requestJson(path, PredictResponse, { method: 'POST', body, signal });
  return {
    rows,
    url: new URL(path, window.location.href).href,
    // requestJson sends JSON.stringify(body): the same text.
    bodyText: JSON.stringify(body),
    elapsedMs: performance.now() - t0,
  };
}

export function predictMutationOptions() {
  return mutationOptions({
    mutationFn: (input: PredictInput) => predict(input),
  });
}
