/** Drag-and-drop of a file onto a target (the explorer, the upload dialog); text and links pass. */
import { useRef, useState, type DragEvent } from 'react';
import { dragHasFiles, droppedFile } from './upload-logic';

/** Drag-and-drop handlers for a drop target; `over` while a file drag is above it. */
export function useFileDrop(onFile: (f: File) => void) {
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
