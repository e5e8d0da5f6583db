/** Uploaded files: GET /api/files, PUT and DELETE /api/files/{name}. */
import { z } from 'zod';

/** One uploaded file (table `files.<name>`): GET /api/files rows and the PUT /api/files/{name} answer. */
export const FileInfo = z
  .object({
    name: z.string(),
    row_count: z.number().int().nullable().optional(),
    columns: z.array(z.string()).optional(),
  })
  .loose();
export const FileList = z.array(FileInfo);
export type FileInfo = z.infer<typeof FileInfo>;
export type FileList = z.infer<typeof FileList>;

/** `{name}` of PUT/DELETE /api/files/{name}: letters, digits and underscores, never a path. */
export const FileName = z
  .string()
  .regex(
    /^[A-Za-z0-9_]{1,63}$/,
    'a file name uses 1 to 63 letters, digits and underscores (no paths, dots or slashes)',
  );

/**
 * PUT /api/files/{name} with a JSON body: MindsDB's URL import. The instance downloads `source`
 * (http or https; public addresses only unless URL_IMPORT_ALLOWED_HOSTS names the host) and loads
 * it like an uploaded file. `original_file_name` is accepted (its extension may tell the format).
 */
export const FileUrlImport = z.strictObject(
  {
    source_type: z.literal('url', {
      error: (iss) =>
        iss.input === 'file'
          ? 'source_type "file" needs a multipart upload with the file in a field named \'file\'; a JSON body imports a URL ({"source_type": "url", "source": "https://..."})'
          : `source_type must be "url" or "file", got ${JSON.stringify(iss.input) ?? 'nothing'}`,
    }),
    source: z.string({
      error: (iss) =>
        iss.input === undefined
          ? 'source is required: the URL to import ({"source_type": "url", "source": "https://..."})'
          : 'source must be a string (the URL to import)',
    }),
    original_file_name: z
      .string({ error: 'original_file_name must be a string' })
      .nullable()
      .optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `Unexpected parameters in request: ${iss.keys.join(', ')}. Allowed parameters: original_file_name, source, source_type`
        : undefined,
  },
);
export type FileUrlImport = z.infer<typeof FileUrlImport>;
