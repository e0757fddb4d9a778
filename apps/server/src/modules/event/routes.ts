import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { events } from '../../db/schema/events';
import '../../i18n/identity';
import { route } from '../../core/route';

/** Product events the console reports (`POST /api/event`); the answer is not read. */
const eventRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(
    app,
    'POST /api/event',
    { preHandler: signedIn, schema: { tags: ['event'] } },
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
