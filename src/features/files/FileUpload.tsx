/**
 * File upload: `FileUploadArea` wraps a part of the shell (the explorer) as a drop zone and owns
 * the upload dialog (UploadDialog.tsx); `UploadFileButton` (anywhere inside the area) opens it.
 */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import './files.css';
import { useFileDrop } from './use-file-drop';
import { UploadDialog } from './UploadDialog';
import { ACCEPTED_LABEL, FILES_DB, selectFileSql } from './upload-logic';

interface UploadContext {
  open(file?: File): void;
}
const Ctx = createContext<UploadContext | null>(null);

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
