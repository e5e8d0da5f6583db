/**
 * ONNX export of a version (issue 28 item 3): `GET /api/projects/{p}/models/{m}[.N]/onnx` sends
 * the model as a file, or answers 422 with the part ONNX cannot express (a free-text input, a
 * time-series forecaster). Whether a version can be exported is asked of the instance, never
 * guessed here: a HEAD of the same URL (the export without its bytes), and for a refusal its GET,
 * whose small JSON error carries the instance's message.
 */
import { queryOptions } from '@tanstack/react-query';
import { ErrorBody } from '../../../../contract';
import {
  ApiError,
  describeHttpFailure,
  isAbortError,
  noteResponse,
  requestJson,
  unreachable,
} from '../../../api/http';
import { modelKeys } from '../../../api/keys';

export interface OnnxTarget {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

export type OnnxExportability = { exportable: true } | { exportable: false; reason: string };

/** The status a model ONNX cannot express is answered with (server/models/onnx.ts). */
const NOT_EXPORTABLE = 422;

export const onnxKeys = {
  exportability: (t: OnnxTarget) =>
    [...modelKeys.detail(t.project, t.model), 'onnx', t.version ?? 'active'] as const,
};

export function onnxPath(t: OnnxTarget): string {
  const m = t.version === undefined ? t.model : `${t.model}.${t.version}`;
  return `/api/projects/${encodeURIComponent(t.project)}/models/${encodeURIComponent(m)}/onnx`;
}

export async function fetchOnnxExportability(
  t: OnnxTarget,
  signal?: AbortSignal,
): Promise<OnnxExportability> {
  const path = onnxPath(t);
  let res: Response;
  try {
    res = await fetch(path, { method: 'HEAD', signal, credentials: 'same-origin' });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw unreachable();
  }
  noteResponse(res, '');
  if (res.ok) return { exportable: true };
  if (res.status !== NOT_EXPORTABLE)
    throw new ApiError(describeHttpFailure(res, ''), 'http', res.status);
  // A refusal's body is the error, a few hundred bytes: its message says which part and why.
  const body = await requestJson(path, ErrorBody, { signal });
  return { exportable: false, reason: body.error_message };
}

export function onnxExportabilityQuery(t: OnnxTarget) {
  return queryOptions({
    queryKey: onnxKeys.exportability(t),
    queryFn: ({ signal }) => fetchOnnxExportability(t, signal),
    // A version never changes: what it can export stays true.
    staleTime: Infinity,
  });
}
