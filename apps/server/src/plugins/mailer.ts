import fp from 'fastify-plugin';
import { createMailer, type TMailer } from '../mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    /** `app.mailer.send({ to, locale, template, params })`: SMTP when SMTP_URL is set, else the dev outbox. */
    mailer: TMailer;
  }
}

export default fp(
  async (app) => {
    const mailer = createMailer({ db: app.db, config: app.config, log: app.log });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mailer' },
);
