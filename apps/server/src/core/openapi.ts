import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { TConfig } from '../config';

/**
 * OpenAPI built from the same zod schemas that validate requests. Must be registered before any
 * route so every route is collected. UI at /api/docs, JSON at /api/docs/json.
 */
export async function registerOpenApi(app: FastifyInstance, config: TConfig) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'AIR API', description: 'AIR: the AI endpoint registry and gateway', version: '1.0.0' },
      servers: [{ url: config.appUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Session token or API key (air_…)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: false,
    uiConfig: { validatorUrl: null },
  });
}
