/**
 * The model page's "Export ONNX" action: downloads the version as one ONNX model
 * (`<project>.<model>.v<N>.onnx`); for a model ONNX cannot express, the instance's reason in its
 * place instead of a button that would fail.
 */
import { useQuery } from '@tanstack/react-query';
import { onnxExportabilityQuery, onnxPath, type OnnxTarget } from './api';

export function ExportOnnx(target: OnnxTarget) {
  const q = useQuery(onnxExportabilityQuery(target));
  if (q.isPending)
    return (
      <button type="button" className="btn small" disabled aria-busy="true">
        Export ONNX
      </button>
    );
  if (q.isError)
    return (
      <span className="muted small" role="note" aria-label="ONNX export">
        ONNX export unavailable: {q.error.message}
      </span>
    );
  if (!q.data.exportable)
    return (
      <span className="muted small m-onnx-refusal" role="note" aria-label="ONNX export">
        No ONNX export: {q.data.reason}
      </span>
    );
  return (
    <a
      className="btn small"
      href={onnxPath(target)}
      download
      title="The whole pipeline as one ONNX model, for ONNX runtimes in Spark, Triton, SQL Server or the browser"
    >
      Export ONNX
    </a>
  );
}
