import fp from 'fastify-plugin';
import type { TWebhookEvent } from '@air/shared/schemas/webhook';
import { outboundAgent } from '../../lib/guarded-lookup';
import { enqueueEvent } from './service';
import { DeliveryWorker } from './worker';

export interface TWebhooks {
  /**
   * Queues an event for the account's webhooks that take it and wakes the worker. Never throws
   * (a failure is logged): the caller's own work has succeeded. Awaiting it means the event is
   * stored; code on the gateway's path calls `later` instead.
   */
  emit(accountId: string, type: TWebhookEvent, data: Record<string, unknown>): Promise<void>;
  /** `emit` off the caller's path: on the next turn of the event loop, nothing awaited. */
  later(accountId: string, type: TWebhookEvent, data: Record<string, unknown>): void;
  /** Wakes the worker: events were queued in another module's transaction (`enqueueEvent`). */
  wake(): void;
  worker: DeliveryWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: TWebhooks;
  }
}

/**
 * Outbound webhooks (contract 6e): the delivery worker of this instance, started when the server
 * is ready and stopped with it, and `app.webhooks.emit` for the modules whose events they carry.
 */
export default fp(
  async (app) => {
    const agent = outboundAgent(app.config.upstreamAllowPrivate);
    const worker = new DeliveryWorker({
      db: app.db,
      secret: app.config.secret,
      agent,
      allowPrivate: app.config.upstreamAllowPrivate,
      log: app.log,
    });
    const emit: TWebhooks['emit'] = async (accountId, type, data) => {
      try {
        if ((await enqueueEvent(app.db, accountId, type, data, worker.now())) > 0) worker.wake();
      } catch (error) {
        app.log.error({ err: error, accountId, type }, 'queueing a webhook event failed');
      }
    };
    app.decorate<TWebhooks>('webhooks', {
      emit,
      later: (accountId, type, data) => void setImmediate(() => void emit(accountId, type, data)),
      wake: () => worker.wake(),
      worker,
    });
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      await worker.close();
      await agent.close();
    });
  },
  { name: 'webhooks' },
);
