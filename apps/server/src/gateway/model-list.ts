import type { TModel } from '@air/shared/schemas/gateway';
import type { TPrice } from '@air/shared/schemas/price';

type TPart = keyof TPrice;
const PARTS: readonly TPart[] = ['per_call', 'per_1m_input_tokens', 'per_1m_output_tokens'];
const FREE: TPrice = { per_call: 0, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };

/** As the catalog's price order: tokens first, the per-call price as a millionth (model-routing.ts). */
const priceKey = (price: TPrice | null) =>
  price ? price.per_1m_input_tokens + price.per_1m_output_tokens + price.per_call / 1_000_000 : 0;

/**
 * `GET /v1/models`' model ids (contract 5b): one entry per model id the callable routes serve,
 * with how many of them serve it, the price of the cheapest (the one `sort: "price"` calls first)
 * and each part's lowest and highest price among them (free counts as 0). Owned by `air`: AIR
 * chooses the provider.
 */
export function modelsOf(
  routes: readonly { id: string; created: Date; price: TPrice | null; modelId: string | null }[],
): TModel[] {
  const byModel = new Map<string, typeof routes>();
  for (const route of routes) {
    if (route.modelId === null) continue;
    const list = byModel.get(route.modelId);
    if (list) (list as (typeof route)[]).push(route);
    else byModel.set(route.modelId, [route]);
  }
  const models: TModel[] = [];
  for (const [id, providers] of byModel) {
    const prices = providers.map((provider) => provider.price ?? FREE);
    const min = { ...FREE };
    const max = { ...FREE };
    for (const part of PARTS) {
      min[part] = Math.min(...prices.map((price) => price[part]));
      max[part] = Math.max(...prices.map((price) => price[part]));
    }
    const cheapest = providers.reduce((a, b) => (priceKey(b.price) < priceKey(a.price) ? b : a));
    models.push({
      id,
      object: 'model',
      created: Math.floor(Math.min(...providers.map((p) => p.created.getTime())) / 1000),
      owned_by: 'air',
      price: cheapest.price,
      providers: providers.length,
      price_range: { min, max },
    });
  }
  return models;
}
