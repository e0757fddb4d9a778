/** A plan as the plan picker shows it, whatever optional details the server includes. */
export interface TPlanChoice {
  id: string;
  name: string;
  /** Minor units (cents). */
  price: number;
  currencySymbol: string;
  interval: string;
  perSeat: boolean;
  quota?: number;
  rateLimit?: number;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Reads `GET /api/account/plans` (`{ plans, active }`). A plan carries id, name, price (minor
 * units), currency symbol (flat `currency_symbol` or the spec's `currency.symbol`), interval and
 * type; `value`/`label` option shapes are accepted too. Entries without an id are dropped.
 */
export function readPlans(data: unknown): { plans: TPlanChoice[]; active: string | null } {
  const body = record(data);
  const list = Array.isArray(body.plans) ? body.plans : Array.isArray(data) ? data : [];
  const plans = list.flatMap((raw): TPlanChoice[] => {
    const plan = record(raw);
    const id = typeof plan.id === 'string' ? plan.id : typeof plan.value === 'string' ? plan.value : '';
    if (!id) return [];
    const currency = record(plan.currency);
    const symbol =
      typeof plan.currency_symbol === 'string'
        ? plan.currency_symbol
        : typeof currency.symbol === 'string'
          ? currency.symbol
          : '$';
    return [
      {
        id,
        name: typeof plan.name === 'string' ? plan.name : typeof plan.label === 'string' ? plan.label : id,
        price: num(plan.price) ?? 0,
        currencySymbol: symbol,
        interval: typeof plan.interval === 'string' ? plan.interval : 'month',
        perSeat: plan.type === 'tiered',
        quota: num(plan.quota_calls_month),
        rateLimit: num(plan.rate_limit_per_minute),
      },
    ];
  });
  const active = typeof body.active === 'string' ? body.active : null;
  return { plans, active };
}

/** Only the free plan can be chosen until card billing lands (no card step pretends otherwise). */
export function isChoosable(plan: TPlanChoice): boolean {
  return plan.id === 'free' || plan.price === 0;
}

export function formatPrice(plan: TPlanChoice, locale: string): string {
  const amount = plan.price / 100;
  const digits = Number.isInteger(amount) ? 0 : 2;
  return `${plan.currencySymbol}${amount.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: 2 })}`;
}
