import net from 'node:net';
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

  it.runIf(process.env.TEST_REDIS_URL)(
    'reaches another instance through Redis; the sender applies it once, at once',
    async () => {
      const url = process.env.TEST_REDIS_URL!;
      const a = createRedisChangeBus(url);
      const b = createRedisChangeBus(url);
      const onA: TChange[] = [];
      const onB: TChange[] = [];
      a.subscribe((c) => onA.push(c));
      b.subscribe((c) => onB.push(c));
      const change: TChange = { kind: 'endpoint', routeName: 'acme/model' };
      // Both connect in the background: publish until the other side hears it.
      await expect
        .poll(async () => {
          await a.publish(change);
          return onB.some((c) => c.kind === 'endpoint');
        })
        .toBe(true);
      expect(onB.filter((c) => c.kind === 'endpoint')[0]).toEqual(change);
      onA.length = 0;
      await a.publish({ kind: 'user', userId: 'u1' });
      // Applied here before publish resolves, and not a second time when Redis echoes it back.
      expect(onA).toEqual([{ kind: 'user', userId: 'u1' }]);
      await expect.poll(() => onB.some((c) => c.kind === 'user')).toBe(true);
      expect(onA).toEqual([{ kind: 'user', userId: 'u1' }]);
      await Promise.all([a.close(), b.close()]);
    },
  );

  it.runIf(process.env.TEST_REDIS_URL)(
    'subscribes again after every reconnection; closed while that SUBSCRIBE is unanswered, nothing is left unhandled',
    async () => {
      const target = new URL(process.env.TEST_REDIS_URL!);
      // A proxy in front of Redis that can cut its connections and swallow a SUBSCRIBE.
      const sockets = new Set<net.Socket>();
      let swallow = false;
      let swallowed = () => {};
      const swallowedOne = new Promise<void>((resolve) => (swallowed = resolve));
      const proxy = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        sockets.add(client).add(upstream);
        client.on('data', (data) => {
          if (swallow && /subscribe/i.test(data.toString('latin1'))) return swallowed();
          upstream.write(data);
        });
        upstream.on('data', (data) => client.write(data));
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const { port } = proxy.address() as net.AddressInfo;
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const bus = createRedisChangeBus(`redis://127.0.0.1:${port}`);
      const other = createRedisChangeBus(process.env.TEST_REDIS_URL!);
      const seen: TChange[] = [];
      bus.subscribe((c) => seen.push(c));
      const hears = async (userId: string) =>
        expect
          .poll(async () => {
            await other.publish({ kind: 'user', userId });
            return seen.some((c) => c.kind === 'user' && c.userId === userId);
          })
          .toBe(true);
      try {
        await hears('before');
        for (const socket of sockets) socket.destroy();
        // Subscribed again on the new connection.
        await hears('after');
        swallow = true;
        for (const socket of sockets) socket.destroy();
        await swallowedOne;
        await bus.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
        await Promise.all([bus.close(), other.close()]);
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => proxy.close(resolve));
      }
    },
  );

  it('with Redis unreachable: created at once, a publication applies here and does not fail', async () => {
    // Nothing listens on port 1.
    const bus = createRedisChangeBus('redis://127.0.0.1:1');
    const seen: TChange[] = [];
    bus.subscribe((c) => seen.push(c));
    await expect(bus.publish({ kind: 'api_key', keyHash: 'h' })).resolves.toBeUndefined();
    expect(seen).toEqual([{ kind: 'api_key', keyHash: 'h' }]);
    await bus.close();
  });
});
