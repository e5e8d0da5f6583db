/**
 * Uploaded files, as the real service exposes them: `PUT /api/files/{name}` (multipart form with
 * a `file` field, or the raw bytes with Content-Type text/csv, application/json,
 * application/octet-stream or a parquet type; or MindsDB's JSON `{"source_type": "url", "source"}`,
 * a URL import), `GET /api/files`, `DELETE /api/files/{name}`.
 *
 * These routes live in their own encapsulated plugin because they read bodies as streams: the
 * app's JSON parsers are replaced here by a pass-through, so an upload goes to disk as it arrives
 * instead of being buffered (the app-wide body limit does not apply; MAX_UPLOAD_BYTES does). The
 * `{name}` segment is matched as a wildcard so that `a/b` or `../x` reach the handler and get a
 * specific 400 instead of a misleading 404.
 */
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError, badInput } from '../../errors';
import type { Instance } from '../../instance';
import { FileUrlImport } from '../../../contract';
import {
  UPLOAD_TYPES,
  deleteFile,
  detectFormat,
  discardUpload,
  importFromUrl,
  importUpload,
  listFiles,
  receiveUpload,
  requestFormOf,
  validateFileName,
} from '../../integrations/files';
import { mediaType } from '../guard';
import { validate } from '../validate';

function nameParam(req: FastifyRequest): string {
  const raw = (req.params as Record<string, string | undefined>)['*'] ?? '';
  let name = raw;
  try {
    // Undo a second layer of encoding too (`%252e%252e`), so no spelling of '..' gets through.
    name = decodeURIComponent(raw);
  } catch {
    // keep raw: validation rejects the '%'
  }
  return validateFileName(name);
}

export async function fileRoutes(app: FastifyInstance, instance: Instance): Promise<void> {
  const catalog = instance.catalog;
  const limit = instance.config.MAX_UPLOAD_BYTES;
  const urlImport = {
    allowedHosts: instance.config.URL_IMPORT_ALLOWED_HOSTS,
    timeoutMs: instance.config.URL_IMPORT_TIMEOUT_MS,
    maxBytes: limit,
  };
  await app.register(async (files) => {
    files.removeAllContentTypeParsers();
    await files.register(multipart, {
      limits: { fileSize: limit, files: 1, fields: 20, parts: 25 },
    });
    files.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    files.get('/api/files', async () => listFiles(catalog));

    // The request guard admits only these body types here (JSON elsewhere).
    files.put('/api/files/*', { config: { bodyTypes: UPLOAD_TYPES } }, async (req) => {
      const name = nameParam(req);
      if (req.isMultipart()) {
        const part = await req.file();
        if (!part)
          throw badInput(`The multipart upload has no file; send it in a field named 'file'`);
        const up = await receiveUpload(catalog, part.file, limit);
        if (part.file.truncated) {
          throw new ServiceError(
            ERROR_CODES.TOO_LARGE,
            `The file is larger than the upload limit (${limit} bytes, MAX_UPLOAD_BYTES)`,
          );
        }
        // MindsDB's Python SDK names the part after the table (no extension) and sends the
        // real name in `original_file_name`.
        const original = part.fields.original_file_name;
        const originalName =
          original && 'value' in original && typeof original.value === 'string'
            ? original.value
            : undefined;
        const format = detectFormat(up.head, {
          contentType: part.mimetype === 'application/octet-stream' ? undefined : part.mimetype,
          filename: /\.\w+$/.test(part.filename) ? part.filename : (originalName ?? part.filename),
        });
        return importUpload(catalog, name, up, format);
      }
      const body = req.body as Readable | undefined;
      if (!body || typeof body.pipe !== 'function')
        throw badInput('The file is empty: the request has no body');
      const up = await receiveUpload(catalog, body, limit);
      const ct = req.headers['content-type'];
      const form = mediaType(ct) === 'application/json' ? requestFormOf(up) : null;
      if (form) {
        discardUpload(up);
        const r = validate(FileUrlImport, form);
        return importFromUrl(catalog, name, r.source, r.original_file_name, urlImport);
      }
      const format = detectFormat(up.head, {
        contentType: ct === 'application/octet-stream' ? undefined : ct,
      });
      return importUpload(catalog, name, up, format);
    });

    files.delete('/api/files/*', async (req) => {
      const name = nameParam(req);
      await deleteFile(catalog, name);
      return { name };
    });
  });
}
