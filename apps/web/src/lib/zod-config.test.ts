import { describe, expect, it } from 'vitest';
import '@/lib/zod-config';
import { z } from 'zod';

describe('zod in the console', () => {
  it('never probes eval (a CSP report): jitless is on, and parsing still works', () => {
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.number() }).parse({ a: 1 })).toEqual({ a: 1 });
    expect(z.object({ a: z.number() }).safeParse({ a: 'x' }).success).toBe(false);
  });
});
