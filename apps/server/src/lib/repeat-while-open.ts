import type { FastifyInstance } from 'fastify';

/**
 * Runs `run` once the server is ready, then every `everyMs` while it is open (a timer that does
 * not keep the process alive). Closing waits for a run in flight, since the database closes after
 * the app. A failed run goes to `onError` and the next one comes at its time.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  everyMs: number,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = run().catch(onError);
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
