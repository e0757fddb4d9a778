import { describe, expect, it } from 'vitest';
import { createMemoryChangeBus, createRedisChangeBus, type TChange } from './change-bus';

describe('change bus', () => {
  it('delivers a change to every subscriber in this process until it unsubscribes', async () => {
    const bus = createMemoryChangeBus();
    const seen: TChange[] = [];
    const off = bus.subscribe((c) => seen.push(c));
    await bus.publish({ kind: 'api_key', keyHash: 'h1' });
    off();
    await bus.publish({ kind: 'api_key', keyHash: 'h2' });
    expect(seen).toEqual([{ kind: 'api_key', keyHash: 'h1' }]);
    await bus.close();
  });

  it.runIf(process.env.TEST_REDIS_URL)('reaches another instance through Redis', async () => {
    const url = process.env.TEST_REDIS_URL!;
    const a = await createRedisChangeBus(url);
    const b = await createRedisChangeBus(url);
    const received = new Promise<TChange>((resolve) => b.subscribe(resolve));
    await a.publish({ kind: 'endpoint', routeName: 'acme/model' });
    await expect(received).resolves.toEqual({ kind: 'endpoint', routeName: 'acme/model' });
    await Promise.all([a.close(), b.close()]);
  });
});
