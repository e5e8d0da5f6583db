/**
 * GET /api/projects and GET /api/projects/{project}: MindsDB's shapes (`[{name}]`, `{name}`), which
 * mindsdb-js-sdk's `Projects.getAllProjects()` returns to its callers as is. Thin: the catalog
 * owns projects.
 */
import type { FastifyInstance } from 'fastify';
import { ProjectInfo, ProjectList, ProjectPathParams } from '../../../contract';
import type { Instance } from '../../instance';
import { ERROR_RESPONSES, serve, V1_PREFIX, type ApiRoute } from '../route-table';

const LIST_PROJECTS = {
  method: 'GET',
  path: '/api/projects',
  operationId: 'listProjects',
  tag: 'projects',
  summary: 'List projects',
  prefixes: [V1_PREFIX],
  responses: {
    200: { description: 'Every project, default `mindsdb` first', schema: ProjectList },
    401: ERROR_RESPONSES.unauthorized,
  },
} as const satisfies ApiRoute;

const GET_PROJECT = {
  method: 'GET',
  path: '/api/projects/{project}',
  operationId: 'getProject',
  tag: 'projects',
  summary: 'One project',
  prefixes: [V1_PREFIX],
  params: ProjectPathParams,
  responses: {
    200: { description: 'The project (names are matched case-insensitively)', schema: ProjectInfo },
    401: ERROR_RESPONSES.unauthorized,
    404: { ...ERROR_RESPONSES.notFound, description: 'No such project' },
  },
} as const satisfies ApiRoute;

export function projectRoutes(app: FastifyInstance, instance: Instance) {
  serve(app, LIST_PROJECTS, async () => instance.catalog.listProjects().map((name) => ({ name })));
  serve(app, GET_PROJECT, async ({ params }) => ({
    name: instance.catalog.requireProject(params.project),
  }));
}
