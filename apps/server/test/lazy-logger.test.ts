import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger } from '../src/lib/lazy-logger';
import { REDACT_PATHS } from '../src/app';

function parentLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
  return { logger, lines };
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

describe('the lazy request logger (gateway)', () => {
  it('answers level checks exactly as a pino child would, for inherited and route levels', () => {
    for (const parentLevel of ['info', 'debug', 'warn', 'silent']) {
      for (const routeLevel of [undefined, 'warn', 'error', 'trace', 'silent']) {
        const { logger } = parentLogger(parentLevel);
        const options = routeLevel === undefined ? {} : { level: routeLevel };
        const lazy = new LazyChildLogger(logger, { reqId: 'r1' }, options);
        const real = logger.child({ reqId: 'r1' }, options);
        for (const level of LEVELS) expect(lazy.isLevelEnabled(level)).toBe(real.isLevelEnabled(level));
        expect(lazy.level).toBe(real.level);
      }
    }
  });

  it('makes no child for lines below its level, and writes enabled ones with the request id, redacted', async () => {
    const { logger, lines } = parentLogger('info');
    let children = 0;
    const child = logger.child.bind(logger);
    logger.child = ((...args: Parameters<typeof child>) => {
      children++;
      return child(...args);
    }) as typeof logger.child;
    const lazy = new LazyChildLogger(logger, { reqId: 'r2' }, { level: 'warn' });
    lazy.info('not written');
    lazy.debug({ a: 1 }, 'not written');
    expect(children).toBe(0);
    lazy.error({ headers: { authorization: 'Bearer air_secret' } }, 'gateway: call failed');
    lazy.warn('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(children).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 50,
      reqId: 'r2',
      msg: 'gateway: call failed',
      headers: { authorization: '[redacted]' },
    });
    expect(lines[1]).toMatchObject({ level: 40, reqId: 'r2', msg: 'second' });
  });
});
