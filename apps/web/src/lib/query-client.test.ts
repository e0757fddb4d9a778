import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from './query-client';

describe('the console data cache', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    queryClient.clear();
  });

  it('asks its own server while the browser reports itself offline (AIR on a laptop with no network)', async () => {
    onlineManager.setOnline(false);
    let asked = 0;
    const data = await queryClient.fetchQuery({
      queryKey: ['offline-probe'],
      queryFn: async () => {
        asked += 1;
        return 'answered';
      },
    });
    expect(data).toBe('answered');
    expect(asked).toBe(1);
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: async (value: string) => `saved ${value}`,
    });
    await expect(mutation.execute('it')).resolves.toBe('saved it');
  });
});
