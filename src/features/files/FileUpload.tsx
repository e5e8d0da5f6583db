/**
 * File upload: `FileUploadArea` wraps a part of the shell (the explorer) as a drop zone and owns
 * the upload dialog; `UploadFileButton` (anywhere inside the area) opens the dialog. The dialog
 * takes a file (picker or drop), a table name prefilled from the file name, shows the bytes sent
 * while uploading, then the loaded table (rows, columns, "Query it") or the server's error.
 */
import { useQuery } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
} from 'react';
import { filesQueryOptions } from '../../api/files';
import './files.css';
import { useUpload, type UploadState } from './use-upload';
import {
  ACCEPT,
  ACCEPTED_LABEL,
  FILES_DB,
  dragHasFiles,
  droppedFile,
  fileNameError,
  formatBytes,
  formatProgress,
  percent,
  sanitizeFileName,
  selectFileSql,
  uploadKind,
} from './upload-logic';
import { Overlay } from '../../components/ui/Overlay';

interface UploadContext {
  open(file?: File): void;
}
const Ctx = createContext<UploadContext | null>(null);

/** Drag-and-drop handlers for a drop target; `over` while a file drag is above it. */
function useFileDrop(onFile: (f: File) => void) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const handlers = {
    onDragEnter(e: DragEvent) {
      if (!dragHasFiles(e.dataTransfer)) return;
      e.preventDefault();
      depth.current++;
      setOver(true);
    },
    onDragOver(e: DragEvent) {
      if (!dragHasFiles(e.dataTransfer)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(e: DragEvent) {
      if (!dragHasFiles(e.dataTransfer)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop(e: DragEvent) {
      depth.current = 0;
      setOver(false);
      const f = droppedFile(e.dataTransfer);
      if (!f) return;
      e.preventDefault();
      e.stopPropagation();
      onFile(f);
    },
  };
  return { over, handlers };
}

export function FileUploadArea({
  onQuery,
  children,
}: {
  /** Opens (and runs) SQL in the editor: "Query it". */
  onQuery(sql: string, name: string): void;
  children: ReactNode;
}) {
  const [dialog, setDialog] = useState<{ file: File | null; key: number } | null>(null);
  const open = useCallback(
    (file?: File) => setDialog((d) => ({ file: file ?? null, key: (d?.key ?? 0) + 1 })),
    [],
  );
  const { over, handlers } = useFileDrop(open);
  return (
    <Ctx.Provider value={{ open }}>
      <div
        className={`file-drop-area${over ? ' over' : ''}`}
        role="region"
        aria-label="File drop zone"
        {...handlers}
      >
        {children}
        {over && (
          <div className="file-drop-overlay" aria-hidden>
            Drop a {ACCEPTED_LABEL} file to upload it as a table in {FILES_DB}
          </div>
        )}
      </div>
      {dialog && (
        <UploadDialog
          key={dialog.key}
          initialFile={dialog.file}
          onClose={() => setDialog(null)}
          onQuery={(name) => {
            setDialog(null);
            onQuery(selectFileSql(name), name);
          }}
        />
      )}
    </Ctx.Provider>
  );
}

/** The "Upload file" button; must be inside a `FileUploadArea`. */
export function UploadFileButton() {
  const ctx = useContext(Ctx);
  if (!ctx) return null;
  return (
    <button
      className="icon-btn"
      aria-label="Upload file"
      title={`Upload a ${ACCEPTED_LABEL} file as a table`}
      onClick={() => ctx.open()}
    >
      ⇪
    </button>
  );
}

function UploadDialog({
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
        <header className="dialog-header">
          <h2>Upload file</h2>
          <button className="icon-btn" aria-label="Close" onClick={close}>
            ×
          </button>
        </header>
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
            <p id={`${nameId}-hint`} className={`upload-note${file && nameError ? ' error' : ''}`}>
              {file && nameError
                ? nameError
                : exists
                  ? `${FILES_DB}.${name} exists: uploading replaces it.`
                  : 'Letters, digits and underscores.'}
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

function UploadProgressView({ state }: { state: UploadState }) {
  if (state.kind !== 'sending' && state.kind !== 'loading') return null;
  const pct = state.kind === 'sending' ? percent(state.loaded, state.total) : 100;
  return (
    <div className="upload-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={
          state.kind === 'sending'
            ? formatProgress(state.loaded, state.total)
            : `Sent; loading into ${FILES_DB}.${state.name}`
        }
      >
        <div
          className={`progress-fill${state.kind === 'loading' ? ' working' : ''}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <div className="small muted" role="status" aria-label="Upload status">
        {state.kind === 'sending'
          ? `Uploading… ${formatProgress(state.loaded, state.total)}`
          : `Sent ${formatBytes(state.total)}; loading into ${FILES_DB}.${state.name}…`}
      </div>
    </div>
  );
}

function UploadSuccess({
  state,
  onQuery,
  onAnother,
  onClose,
}: {
  state: Extract<UploadState, { kind: 'done' }>;
  onQuery(): void;
  onAnother(): void;
  onClose(): void;
}) {
  const { info } = state;
  const cols = info.columns ?? [];
  return (
    <div className="upload-success">
      <p role="status" aria-label="Upload result">
        Loaded{' '}
        <code>
          {FILES_DB}.{info.name}
        </code>
        : {info.row_count == null ? 'unknown number of' : info.row_count.toLocaleString('en-US')}{' '}
        {info.row_count === 1 ? 'row' : 'rows'}, {cols.length}{' '}
        {cols.length === 1 ? 'column' : 'columns'}.
      </p>
      {cols.length > 0 && (
        <ul className="upload-columns" aria-label="Columns">
          {cols.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onAnother}>
          Upload another
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="btn primary"
          // The upload's form made way for its result inside the open dialog: the focus moves to
          // the next step rather than falling back to the page.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          onClick={onQuery}
        >
          Query it
        </button>
      </div>
    </div>
  );
}
