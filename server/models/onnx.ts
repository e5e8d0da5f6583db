/**
 * ONNX export of a model version (issue 28): its artifact, read from the store, turned into one
 * ONNX model by the AutoML engine (server/automl/onnx/). What ONNX cannot express is a 422
 * naming the part, never a different model.
 */
import fs from 'node:fs';
import { OnnxExportError, deserializeArtifact, exportOnnx } from '../automl/index';
import { ERROR_CODES, ServiceError } from '../errors';
import type { ModelVersionRecord } from './store';

/** HTTP status of a model ONNX cannot express (the request was fine; the model is not). */
const NOT_EXPORTABLE_STATUS = 422;

export interface OnnxFile {
  bytes: Uint8Array;
  /** `<project>.<model>.v<version>.onnx`. */
  fileName: string;
}

/** Exports a complete version whose artifact is at `artifactFile`. */
export async function exportVersion(
  rec: ModelVersionRecord,
  artifactFile: string,
  instanceVersion: string,
): Promise<OnnxFile> {
  const artifact = deserializeArtifact(await fs.promises.readFile(artifactFile, 'utf8'));
  try {
    const { bytes } = exportOnnx(artifact, {
      name: rec.name,
      version: rec.version,
      producerVersion: instanceVersion,
    });
    return { bytes, fileName: `${rec.project}.${rec.name}.v${rec.version}.onnx` };
  } catch (err) {
    if (err instanceof OnnxExportError) {
      throw new ServiceError(
        ERROR_CODES.BAD_INPUT,
        `Model '${rec.project}.${rec.name}' (version ${rec.version}) cannot be exported to ONNX: ${err.message}`,
        NOT_EXPORTABLE_STATUS,
      );
    }
    throw err;
  }
}
