/** Databases and projects: GET /api/databases, GET /api/projects, the `{project}` parameter. */
import { z } from 'zod';

/** GET /api/databases: every database, as SHOW FULL DATABASES lists them (never parameters). */
export const DatabaseInfo = z
  .object({
    name: z.string(),
    type: z.string(),
    /** MindsDB's record id: an integer, null for the system databases. */
    id: z.number().int().nullable().optional(),
    engine: z.string().nullable(),
  })
  .loose();
export const DatabaseList = z.array(DatabaseInfo);
export type DatabaseInfo = z.infer<typeof DatabaseInfo>;
export type DatabaseList = z.infer<typeof DatabaseList>;

/** Path parameters of /api/projects/{project}/... */
export const ProjectPathParams = z.object({
  project: z.string().min(1, 'project name is empty').describe('Name of the project, e.g. mindsdb'),
});
export type ProjectPathParams = z.infer<typeof ProjectPathParams>;

/** GET /api/projects/{project}: MindsDB's project record (only the name). */
export const ProjectInfo = z.object({ name: z.string() }).loose();
export type ProjectInfo = z.infer<typeof ProjectInfo>;
/** GET /api/projects: what mindsdb-js-sdk's `Projects.getAllProjects()` returns as is. */
export const ProjectList = z.array(ProjectInfo);
export type ProjectList = z.infer<typeof ProjectList>;
