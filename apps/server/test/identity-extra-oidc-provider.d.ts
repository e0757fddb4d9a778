// oidc-provider ships no types; this covers the little the social sign-in tests use.
declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http';

  export interface TOidcAccount {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
