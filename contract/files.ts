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
