/**
 * GET /api/projects and GET /api/projects/{project}: MindsDB's shapes (`[{name}]`, `{name}`), which
 * mindsdb-js-sdk's `Projects.getAllProjects()` returns to its callers as is. Thin: the catalog
 * owns projects. Registered under both `/` and the spec's `/v1/api` prefix.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ProjectInfo, ProjectList, ProjectPathParams } from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES, problem } from '../responses';

export const projectRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'GET',
    url: '/api/projects',
    schema: {
      operationId: 'listProjects',
      tags: ['projects'],
      summary: 'List projects',
      response: {
        200: answer('Every project, default `mindsdb` first', ProjectList),
        401: ERROR_RESPONSES.unauthorized,
      },
    },
    handler: async () => instance.catalog.listProjects().map((name) => ({ name })),
  });

  app.route({
    method: 'GET',
    url: '/api/projects/:project',
    schema: {
      operationId: 'getProject',
      tags: ['projects'],
      summary: 'One project',
      params: ProjectPathParams,
      response: {
        200: answer('The project (names are matched case-insensitively)', ProjectInfo),
        401: ERROR_RESPONSES.unauthorized,
        404: problem('No such project'),
      },
    },
    handler: async (req) => ({ name: instance.catalog.requireProject(req.params.project) }),
  });
};
