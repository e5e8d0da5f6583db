/**
 * ONNX export of a model version (issue 28): the whole pipeline of a tabular model as one ONNX
 * model (server/automl/onnx/), downloaded as a file. This file maps HTTP onto the model layer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ModelOnnxFile, ModelPathParams } from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { modelRef } from './models';

export const modelOnnxRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model/onnx',
    schema: {
      operationId: 'modelOnnx',
      tags: ['models'],
      summary: 'Export a model to ONNX',
      description:
        'The model\'s whole pipeline as one ONNX model (IR version 10, opset 21 of the ONNX domain, opset 5 of ai.onnx.ml): its input encoders, GBM trees (TreeEnsemble), linear part, their blend, the interval or calibrated class probabilities and the decision rule, in doubles. One `[N, 1]` input per model input column, named after it: numbers, dates (milliseconds since 1970 UTC) and number categories as `double`, other categories and booleans as `string` (see docs/scale.md). Outputs: `<target>`, `<target>_min`, `<target>_max` (regression) or `<target>`, `<target>_confidence`, `<target>_probabilities` (classifiers). Served as `application/octet-stream` with `Content-Disposition: attachment; filename="<project>.<model>.v<N>.onnx"`. Models with a free-text input and time-series models cannot be expressed in ONNX: 422 saying which part.',
      params: ModelPathParams,
      response: {
        200: answer('The ONNX model (protobuf)', ModelOnnxFile, 'application/octet-stream'),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
        409: problem(
          'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
        ),
        422: problem(
          'The model has a part ONNX cannot express (a free-text input, a time-series forecaster); the message names it',
        ),
      },
    },
    handler: async (req, reply) => {
      const file = await instance.models.onnx(modelRef(req.params));
      const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      // The name is built from validated project/model names (letters, digits, underscores).
      return (
        reply
          .type('application/octet-stream')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          // The schema describes the body as a binary string (OpenAPI); Fastify sends a Buffer as is.
          .send(bytes as unknown as string)
      );
    },
  });
};
