/**
 * Uploaded files: `GET /api/files` (list) and `PUT /api/files/{name}` (upload). The upload uses
 * XMLHttpRequest, not fetch: only XHR reports upload progress. The file goes as a multipart form
 * (field `file`), so the server also sees its name and type when it picks CSV / JSON / Parquet.
 */
import { queryOptions } from '@tanstack/react-query';
import { FileInfo, FileList } from '../../contract';
import { isGatewayFailure, reportAnswered, reportUnreachable } from './connection-health';
import { ApiError, instanceTarget, errorDetail, requestJson } from './http';
import { fileKeys } from './keys';

export function filesQueryOptions() {
  return queryOptions({
    queryKey: fileKeys.list(),
    queryFn: ({ signal }) => requestJson('/api/files', FileList, { signal }),
    staleTime: 30_000,
    retry: false,
  });
}

interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Bytes of the whole request body (slightly more than the file: the multipart framing). */
  total: number;
}

export interface UploadOptions {
  onProgress?(p: UploadProgress): void;
  /** The whole body has been sent; the server is now loading it into a table. */
  onSent?(): void;
  signal?: AbortSignal;
}

/** The message of an error response: the server's `error_message` when it sent one. */
export function uploadErrorMessage(status: number, text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const detail = errorDetail(text, json);
  if (status === 502 || status === 503 || status === 504)
    return `The instance (${instanceTarget()}) is not reachable (HTTP ${status}).${detail ? ` ${detail}` : ''}`;
  return detail || `The upload failed (HTTP ${status})`;
}

/** Uploads `file` as `files.<name>`; resolves with what the server loaded. */
export function uploadFile(
  name: string,
  file: Blob,
  { onProgress, onSent, signal }: UploadOptions = {},
): Promise<FileInfo> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('PUT', `/api/files/${encodeURIComponent(name)}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.upload.onload = () => onSent?.();
    xhr.onload = () => {
      done();
      if (isGatewayFailure(xhr.status, xhr.responseText))
        reportUnreachable(uploadErrorMessage(xhr.status, xhr.responseText));
      else reportAnswered();
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(uploadErrorMessage(xhr.status, xhr.responseText), 'http', xhr.status));
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        reject(new ApiError('The instance sent a response that is not JSON', 'parse', xhr.status));
        return;
      }
      const parsed = FileInfo.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else
        reject(
          new ApiError(
            `Unexpected response from the upload: ${parsed.error.issues[0]?.message ?? 'invalid shape'}`,
            'parse',
            xhr.status,
          ),
        );
    };
    xhr.onerror = () => {
      done();
      const message = `Cannot reach the instance (${instanceTarget()}): the upload failed on the network.`;
      reportUnreachable(message);
      reject(new ApiError(message, 'network'));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort);
    const form = new FormData();
    form.append('file', file, file instanceof File ? file.name : name);
    xhr.send(form);
  });
}
