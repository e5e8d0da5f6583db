/**
 * One upload's state machine: idle -> sending (progress) -> loading (the server builds the table)
 * -> done | failed. After a success, the explorer's `files` tables, the column cache and the file
 * list are invalidated so `files.<name>` shows up.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFile } from '../../api/files';
import { isAbortError } from '../../api/http';
import { catalogKeys, fileKeys } from '../../api/keys';
import { FILES_DB, type UploadState } from './upload-logic';

export function useUpload() {
  const qc = useQueryClient();
  const [state, setState] = useState<UploadState>({ kind: 'idle' });
  const ctrl = useRef<AbortController | null>(null);

  useEffect(() => () => ctrl.current?.abort(), []);

  const start = useCallback(
    async (name: string, file: File) => {
      ctrl.current?.abort();
      const c = new AbortController();
      ctrl.current = c;
      setState({ kind: 'sending', name, loaded: 0, total: file.size });
      try {
        const info = await uploadFile(name, file, {
          signal: c.signal,
          onProgress: ({ loaded, total }) =>
            setState((s) => (s.kind === 'sending' ? { ...s, loaded, total } : s)),
          onSent: () =>
            setState((s) => (s.kind === 'sending' ? { kind: 'loading', name, total: s.total } : s)),
        });
        if (c.signal.aborted) return;
        setState({ kind: 'done', info });
        await Promise.all([
          qc.invalidateQueries({ queryKey: catalogKeys.tables(FILES_DB) }),
          qc.invalidateQueries({ queryKey: catalogKeys.columns() }),
          qc.invalidateQueries({ queryKey: fileKeys.all }),
        ]);
      } catch (e) {
        if (isAbortError(e)) {
          if (ctrl.current === c) setState({ kind: 'idle' });
          return;
        }
        setState({ kind: 'failed', name, message: e instanceof Error ? e.message : String(e) });
      } finally {
        if (ctrl.current === c) ctrl.current = null;
      }
    },
    [qc],
  );

  const cancel = useCallback(() => ctrl.current?.abort(), []);
  const reset = useCallback(() => {
    ctrl.current?.abort();
    setState({ kind: 'idle' });
  }, []);

  return { state, start, cancel, reset };
}
