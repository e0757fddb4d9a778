import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZEvent, ZEventRecorded } from '@air/shared/schemas/feedback';
import { events } from '../../db/schema/events';
import '../../i18n/identity';

/** Product events the console reports (`POST /api/event`); the answer is not read. */
const eventRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  app.post(
    '/event',
    {
      preHandler: signedIn,
      schema: { tags: ['event'], body: ZEvent, response: { 201: ZEnvelope(ZEventRecorded) } },
    },
    async (request, reply) => {
      const auth = request.auth!;
      await app.db.insert(events).values({
        userId: auth.kind === 'session' ? auth.userId : null,
        accountId: auth.accountId,
        name: request.body.name,
        metadata: request.body.metadata ?? null,
      });
      return reply.status(201).send({ data: { recorded: true as const } });
    },
  );
};

export default eventRoutes;
