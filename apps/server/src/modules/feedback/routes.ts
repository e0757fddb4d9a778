import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { feedback } from '../../db/schema/feedback';
import { t } from '../../i18n';
import '../../i18n/identity';
import { route } from '../../core/route';

/** Stored as a score so ratings can be averaged: positive 1, neutral 0, negative -1. */
const SCORE = { positive: 1, neutral: 0, negative: -1 } as const;

const feedbackRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(
    app,
    'POST /api/feedback',
    { preHandler: signedIn, schema: { tags: ['feedback'] } },
    async (request, reply) => {
      const auth = request.auth!;
      await app.db.insert(feedback).values({
        userId: auth.kind === 'session' ? auth.userId : null,
        accountId: auth.accountId,
        rating: SCORE[request.body.rating],
        comment: request.body.comment,
      });
      return reply.status(201).send({ message: t(request.locale, 'feedback.thanks') });
    },
  );
};

export default feedbackRoutes;
