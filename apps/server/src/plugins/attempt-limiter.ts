import fp from 'fastify-plugin';
import { registerMessages } from '../i18n';
import { createAttemptLimiter, type TAttemptLimiter } from '../lib/attempt-limiter';

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed-credential counters (per email, per IP): see lib/attempt-limiter.ts. */
    attempts: TAttemptLimiter;
  }
}

registerMessages({
  en: { 'error.too_many_attempts': 'Too many failed attempts. Please wait a few minutes and try again.' },
  es: {
    'error.too_many_attempts': 'Demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo.',
  },
});

export default fp(
  async (app) => {
    const limiter = await createAttemptLimiter({ redisUrl: app.config.redisUrl });
    app.decorate('attempts', limiter);
    app.addHook('onClose', async () => limiter.close());
  },
  { name: 'attempt-limiter' },
);
