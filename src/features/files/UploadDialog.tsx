/**
 * The upload dialog: a file (picker or drop), a table name prefilled from the file name, the bytes
 * sent while uploading, then the loaded table or the server's error. Escape closes it (and cancels
 * a running upload).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { filesQueryOptions } from '../../api/files';
import { DialogHeader, Overlay } from '../../components/ui/Overlay';
import { useFileDrop } from './use-file-drop';
import { useUpload } from './use-upload';
import {
  ACCEPT,
  ACCEPTED_LABEL,
  FILES_DB,
  fileNameError,
  formatBytes,
  nameHint,
  sanitizeFileName,
  uploadKind,
} from './upload-logic';
import { UploadProgressView, UploadSuccess } from './UploadResult';

export function UploadDialog({
  initialFile,
  onClose,
  onQuery,
}: {
  initialFile: File | null;
  onClose(): void;
  onQuery(name: string): void;
}) {
  const [file, setFile] = useState<File | null>(initialFile);
  const [name, setName] = useState(initialFile ? sanitizeFileName(initialFile.name) : '');
  const { state, start, cancel, reset } = useUpload();
  const files = useQuery(filesQueryOptions());
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const nameId = useId();
  const busy = state.kind === 'sending' || state.kind === 'loading';

  useEffect(() => {
    dialogRef.current?.focus();
  }, []);
  // Escape closes (and cancels a running upload) wherever the focus went, e.g. to the page when
  // the focused button got disabled during the upload.
  const closeRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const choose = (f: File) => {
    setFile(f);
    setName(sanitizeFileName(f.name));
    reset();
  };
  const { over, handlers } = useFileDrop((f) => {
    if (!busy) choose(f);
  });

  const nameError = fileNameError(name);
  const exists = !nameError && files.data?.some((f) => f.name.toLowerCase() === name.toLowerCase());
  const hint = nameHint(name, { chosen: !!file, error: nameError, exists: !!exists });
  const kind = file ? uploadKind(file) : null;
  const close = () => {
    cancel();
    onClose();
  };
  useEffect(() => {
    closeRef.current = close;
  });

  return (
    // Escape: the window's listener above.
    <Overlay onBackdropClick={busy ? undefined : close} {...handlers}>
      <div
        ref={dialogRef}
        className={`dialog upload-dialog${over ? ' over' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label="Upload file"
        tabIndex={-1}
      >
        <DialogHeader title="Upload file" onClose={close} />
        {state.kind === 'done' ? (
          <UploadSuccess
            state={state}
            onQuery={() => onQuery(state.info.name)}
            onAnother={() => {
              setFile(null);
              setName('');
              reset();
            }}
            onClose={onClose}
          />
        ) : (
          <form
            className="upload-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (file && !nameError && !busy) void start(name, file);
            }}
          >
            <div className={`file-picker${over ? ' over' : ''}`}>
              {file ? (
                <div className="file-chosen">
                  <strong>{file.name}</strong>{' '}
                  <span className="muted">
                    {formatBytes(file.size)}
                    {kind ? ` · ${kind.toUpperCase()}` : ''}
                  </span>
                </div>
              ) : (
                <div className="muted">Drop a {ACCEPTED_LABEL} file here, or</div>
              )}
              <button
                type="button"
                className="btn small"
                disabled={busy}
                onClick={() => inputRef.current?.click()}
              >
                {file ? 'Choose another file…' : 'Choose file…'}
              </button>
              <input
                ref={inputRef}
                type="file"
                className="visually-hidden"
                aria-label="File to upload"
                tabIndex={-1}
                accept={ACCEPT}
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) choose(f);
                  e.target.value = '';
                }}
              />
            </div>
            {file && !kind && (
              <p className="upload-note warn">
                The name does not say {ACCEPTED_LABEL}; the instance will look at the content.
              </p>
            )}
            <label className="upload-name" htmlFor={nameId}>
              Table name
            </label>
            <div className="upload-name-row">
              <span className="muted">{FILES_DB}.</span>
              <input
                id={nameId}
                value={name}
                disabled={busy}
                spellCheck={false}
                autoComplete="off"
                aria-invalid={!!file && !!nameError}
                aria-describedby={`${nameId}-hint`}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <p id={`${nameId}-hint`} className={`upload-note${hint.error ? ' error' : ''}`}>
              {hint.text}
            </p>
            <UploadProgressView state={state} />
            {state.kind === 'failed' && (
              <div className="error-banner" role="alert" aria-label="Upload error">
                <strong>Upload failed.</strong> {state.message}
              </div>
            )}
            <div className="dialog-actions">
              {state.kind === 'sending' ? (
                <button type="button" className="btn" onClick={cancel}>
                  Cancel upload
                </button>
              ) : (
                <button type="button" className="btn" onClick={close} disabled={busy}>
                  Cancel
                </button>
              )}
              <button type="submit" className="btn primary" disabled={!file || !!nameError || busy}>
                {state.kind === 'failed' ? 'Try again' : 'Upload'}
              </button>
            </div>
          </form>
        )}
      </div>
    </Overlay>
  );
}
