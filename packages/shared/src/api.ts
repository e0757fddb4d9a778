import { z } from 'zod';
import type { TCall, TUndeclaredParams } from './api-call';
import { ZPlanChoice, ZPlansAnswer, ZSignUp } from './schemas/account';
import { ZActivityPage, ZActivityQuery } from './schemas/activity';
import {
  ZBillingConfig,
  ZCard,
  ZCardUpdate,
  ZInvoiceList,
  ZInvoiceQuery,
  ZLocalCardToken,
  ZLocalCardTokenRequest,
  ZLocalConfirmAnswer,
  ZLocalConfirmRequest,
  ZPlanChange,
  ZPlanPreview,
  ZPlanPreviewQuery,
  ZSubscription,
  ZSubscriptionAuthorize,
} from './schemas/billing';
import {
  ZAccountUsers,
  ZDeletedCount,
  ZDeleteInvites,
  ZInviteInfo,
  ZInviteRequest,
  ZInviteResult,
  ZInviteTokenParams,
  ZMember,
  ZRoleChange,
} from './schemas/membership';
import { ZSessionList, ZSessionsSignedOut } from './schemas/session';
import { ZSupportMail, ZUtilityConfig } from './schemas/support';
import { ZUsageInsight, ZUsageInsightQuery, ZUsageLog, ZUsageLogQuery } from './schemas/usage-insight';
import { ZLimitsState, ZListedApiKey } from './schemas/limits';
import { ZAccountOverview } from './schemas/overview';

import { ZPaymentActionRequired, ZPlanSaved, ZPlanState } from './schemas/billing';
import {
  ZAiEndpoint,
  ZAiEndpointIdsParams,
  ZAiEndpointRead,
  ZCreateAiEndpoint,
  ZCreatedAiEndpoint,
  ZSharedAiEndpoint,
  ZUpdateAiEndpoint,
  ZUpstreamHealth,
  ZMcpTools,
} from './schemas/aiendpoint';
import {
  ZApiKey,
  ZApiKeyScope,
  ZCreateApiKey,
  ZCreatedApiKey,
  ZDeleteApiKeys,
  ZUpdateApiKey,
} from './schemas/api-key';
import {
  ZAuthStatus,
  ZPasswordReset,
  ZPasswordResetRequest,
  ZSignIn,
  ZSignInAnswer,
  ZSwitchAccount,
} from './schemas/auth';
import { ZDeleted, ZEnvelope, ZIdParams, ZIdsParams, ZMessageOnly, ZSignOut } from './schemas/common';
import { ZEvent, ZEventRecorded, ZFeedback } from './schemas/feedback';
import { ZImpersonate } from './schemas/impersonate';
import { ITEM_KINDS, ZDeleteItems, ZItem, ZItemInput, type TItemKind } from './schemas/item';
import {
  ZEarnings,
  ZMarketplaceEndpoint,
  ZMarketplaceProvider,
  ZProviderParams,
  ZProviderProfile,
  ZProviderProfileUpdate,
  ZMarketplacePage,
  ZMarketplaceParams,
  ZMarketplaceQuery,
  ZMarketplaceModelsPage,
  ZMarketplaceModelsQuery,
} from './schemas/marketplace';
import { ZMagicLinkRequest, ZMagicLinkVerify } from './schemas/magic-link';
import { ZNotificationPrefs, ZNotificationUpdate } from './schemas/notification';
import { ZSocialProviders } from './schemas/social';
import {
  ZOtpSignIn,
  ZTwoFactorSetup,
  ZTwoFactorToggle,
  ZTwoFactorVerified,
  ZTwoFactorVerify,
} from './schemas/two-factor';
import { ZSpendLimit, ZSpendLimitUpdate } from './schemas/spend-limit';
import { ZPayoutAccount, ZPayoutAccountUpdate, ZPayouts } from './schemas/payout';
import {
  ZCreatedWebhook,
  ZCreateWebhook,
  ZUpdateWebhook,
  ZWebhook,
  ZDeliveryPage,
  ZDeliveryQuery,
  ZWebhookTestQueued,
} from './schemas/webhook';
import { ZUsageList } from './schemas/usage';
import {
  ZInvitedSignUp,
  ZPasswordChange,
  ZPasswordConfirm,
  ZPermissionMap,
  ZSignInData,
  ZUser,
  ZUserOrKey,
  ZUserUpdate,
  ZVerifyAnswer,
  ZVerifyEmail,
} from './schemas/user';

/** A plan change: saved (with the user), or a card payment to confirm first. */
const ZPlanAnswer = z.union([ZPaymentActionRequired, ZPlanSaved]);

const ZItemList = ZEnvelope(z.array(ZItem));
const ZItemOne = ZEnvelope(ZItem);
const ZDeletedAnswer = ZEnvelope(ZDeleted);

type TItemCalls<K extends TItemKind> = Record<`GET /api/${K}`, { response: typeof ZItemList }> &
  Record<`GET /api/${K}/:id`, { params: typeof ZIdParams; response: typeof ZItemOne }> &
  Record<`POST /api/${K}`, { body: typeof ZItemInput; response: typeof ZItemOne; status: 201 }> &
  Record<
    `PATCH /api/${K}/:id`,
    { params: typeof ZIdParams; body: typeof ZItemInput; response: typeof ZItemOne }
  > &
  Record<`DELETE /api/${K}`, { body: typeof ZDeleteItems; response: typeof ZDeletedAnswer }> &
  Record<`DELETE /api/${K}/:ids`, { params: typeof ZIdsParams; response: typeof ZDeletedAnswer }>;

/** The six calls of each name-only collection (`items` module). */
function itemCalls<K extends TItemKind>(kind: K): TItemCalls<K> {
  return {
    [`GET /api/${kind}`]: { response: ZItemList },
    [`GET /api/${kind}/:id`]: { params: ZIdParams, response: ZItemOne },
    [`POST /api/${kind}`]: { body: ZItemInput, response: ZItemOne, status: 201 },
    [`PATCH /api/${kind}/:id`]: { params: ZIdParams, body: ZItemInput, response: ZItemOne },
    [`DELETE /api/${kind}`]: { body: ZDeleteItems, response: ZDeletedAnswer },
    [`DELETE /api/${kind}/:ids`]: { params: ZIdsParams, response: ZDeletedAnswer },
  } as TItemCalls<K>;
}

/**
 * The console API in one table: `"METHOD /path"` (Fastify's `:param` syntax) → what the wire
 * carries for it (api-call.ts: path params, query, body, success answer and status, refusals). The
 * server registers each route from its entry (core/route.ts: validation of params, query and body,
 * the serialised answer, the API document's parameters and error answers), and the console's
 * client types each call from it, so a shape is written once.
 */
export const CONSOLE_API = {
  'POST /api/account': {
    public: true,
    // The email is registered already.
    errors: ['conflict'],
    body: ZSignUp,
    response: ZEnvelope(ZSignInAnswer),
    status: 201,
  },
  'GET /api/account/plans': { response: ZEnvelope(ZPlansAnswer) },
  'GET /api/account/plan': { response: ZEnvelope(ZPlanState) },
  'POST /api/account/plan': { body: ZPlanChoice, response: ZPlanAnswer },
  'PATCH /api/account/plan': { body: ZPlanChoice, response: ZPlanAnswer },
  'GET /api/account/plan/preview': { query: ZPlanPreviewQuery, response: ZEnvelope(ZPlanPreview) },
  'DELETE /api/account': { body: ZPasswordConfirm, response: ZEnvelope(ZSignOut) },
  'GET /api/account/usage': { response: ZEnvelope(ZUsageList) },
  'GET /api/account/usage/insight': { query: ZUsageInsightQuery, response: ZEnvelope(ZUsageInsight) },
  'GET /api/account/usage/log': { query: ZUsageLogQuery, response: ZEnvelope(ZUsageLog) },
  'GET /api/account/usage/limits': { response: ZEnvelope(ZLimitsState) },
  'GET /api/account/overview': { response: ZEnvelope(ZAccountOverview) },
  'GET /api/account/activity': { query: ZActivityQuery, response: ZEnvelope(ZActivityPage) },

  'GET /api/billing/config': { public: true, response: ZEnvelope(ZBillingConfig) },
  'GET /api/account/subscription': { response: ZEnvelope(ZSubscription.nullable()) },
  'GET /api/account/invoice': { query: ZInvoiceQuery, response: ZEnvelope(ZInvoiceList) },
  'GET /api/account/earnings': { response: ZEnvelope(ZEarnings) },
  'GET /api/account/marketplace-profile': { response: ZEnvelope(ZProviderProfile) },
  'PUT /api/account/marketplace-profile': {
    body: ZProviderProfileUpdate,
    response: ZEnvelope(ZProviderProfile),
  },
  'PATCH /api/account/spend-limit': { body: ZSpendLimitUpdate, response: ZEnvelope(ZSpendLimit) },
  'GET /api/account/payouts': { response: ZEnvelope(ZPayouts) },
  'GET /api/account/payout-account': { response: ZEnvelope(ZPayoutAccount.nullable()) },
  'PUT /api/account/payout-account': { body: ZPayoutAccountUpdate, response: ZEnvelope(ZPayoutAccount) },
  'GET /api/account/card': { response: ZEnvelope(ZCard.nullable()) },
  'PATCH /api/account/card': {
    body: ZCardUpdate,
    response: z.union([ZPaymentActionRequired, ZEnvelope(ZCard).extend({ message: z.string() })]),
  },
  'POST /api/account/subscription/authorize': {
    body: ZSubscriptionAuthorize,
    response: z.union([
      ZPaymentActionRequired,
      ZEnvelope(ZSubscription.nullable()).extend({ message: z.string() }),
    ]),
  },
  'POST /api/account/upgrade': { body: ZPlanChange, response: ZPlanAnswer },
  'POST /api/billing/local/token': { body: ZLocalCardTokenRequest, response: ZEnvelope(ZLocalCardToken) },
  'POST /api/billing/local/confirm': {
    // No such payment of the account's (or no local processor).
    errors: ['not_found'],
    body: ZLocalConfirmRequest,
    response: ZEnvelope(ZLocalConfirmAnswer),
  },

  'GET /api/account/users': { response: ZEnvelope(ZAccountUsers) },
  'POST /api/invite': { body: ZInviteRequest, response: ZEnvelope(ZInviteResult) },
  'DELETE /api/invite': { body: ZDeleteInvites, response: ZEnvelope(ZDeletedCount) },
  'DELETE /api/invite/:id': { params: ZIdParams, response: ZEnvelope(ZDeletedCount) },
  'GET /api/invite/:token': { params: ZInviteTokenParams, public: true, response: ZEnvelope(ZInviteInfo) },
  'PATCH /api/user/:id': { params: ZIdParams, body: ZRoleChange, response: ZEnvelope(ZMember) },

  'GET /api/user/sessions': { response: ZSessionList },
  'DELETE /api/user/sessions': { response: ZSessionsSignedOut },
  'DELETE /api/user/sessions/:id': { params: ZIdParams, response: ZSessionsSignedOut },

  'GET /api/utility/config': { response: ZEnvelope(ZUtilityConfig) },
  'POST /api/utility/mail': { body: ZSupportMail, response: ZMessageOnly },

  'POST /api/auth': {
    public: true,
    errors: ['unauthenticated'],
    body: ZSignIn,
    response: ZEnvelope(ZSignInAnswer),
  },
  'GET /api/auth': { public: true, response: ZEnvelope(ZAuthStatus) },
  'DELETE /api/auth': { response: ZMessageOnly },
  // An account the person is no member of is not found.
  'POST /api/auth/switch': { errors: ['not_found'], body: ZSwitchAccount, response: ZEnvelope(ZSignInData) },
  'POST /api/auth/password/reset/request': {
    public: true,
    body: ZPasswordResetRequest,
    response: ZMessageOnly,
  },
  'POST /api/auth/password/reset': { public: true, body: ZPasswordReset, response: ZMessageOnly },
  'POST /api/auth/magic': { public: true, body: ZMagicLinkRequest, response: ZMessageOnly },
  'POST /api/auth/magic/verify': {
    public: true,
    errors: ['unauthenticated'],
    body: ZMagicLinkVerify,
    response: ZEnvelope(ZSignInAnswer),
  },
  'POST /api/auth/otp': {
    public: true,
    errors: ['unauthenticated'],
    body: ZOtpSignIn,
    response: ZEnvelope(ZSignInData),
  },
  'POST /api/auth/impersonate': {
    public: true,
    errors: ['unauthenticated'],
    body: ZImpersonate,
    response: ZEnvelope(ZSignInAnswer),
  },
  'GET /api/auth/providers': { public: true, response: ZEnvelope(ZSocialProviders) },

  'GET /api/user': { response: ZEnvelope(ZUserOrKey) },
  'PATCH /api/user': { body: ZUserUpdate, response: ZEnvelope(ZUser) },
  'POST /api/user': { public: true, body: ZInvitedSignUp, response: ZEnvelope(ZSignInAnswer), status: 201 },
  'DELETE /api/user': { body: ZPasswordConfirm, response: ZEnvelope(ZSignOut) },
  'DELETE /api/user/:id': { params: ZIdParams, response: ZEnvelope(ZSignOut) },
  'GET /api/user/permissions': { response: ZEnvelope(ZPermissionMap) },
  'PUT /api/user/password': { body: ZPasswordChange, response: ZEnvelope(ZUser) },
  'POST /api/user/verify': { public: true, body: ZVerifyEmail, response: ZEnvelope(ZVerifyAnswer) },
  'POST /api/user/verify/request': { response: ZMessageOnly },
  'PUT /api/user/2fa': { body: ZTwoFactorToggle, response: ZEnvelope(ZTwoFactorSetup) },
  'POST /api/user/2fa/verify': { body: ZTwoFactorVerify, response: ZEnvelope(ZTwoFactorVerified) },

  'GET /api/notification': { response: ZEnvelope(ZNotificationPrefs) },
  'PATCH /api/notification': { body: ZNotificationUpdate, response: ZEnvelope(ZNotificationPrefs) },
  'POST /api/feedback': { body: ZFeedback, response: ZMessageOnly, status: 201 },
  'POST /api/event': { body: ZEvent, response: ZEnvelope(ZEventRecorded), status: 201 },

  'GET /api/key/scopes': { response: ZEnvelope(z.array(ZApiKeyScope)) },
  'GET /api/key': { response: ZEnvelope(z.array(ZListedApiKey)) },
  'GET /api/key/:id': { params: ZIdParams, response: ZEnvelope(ZApiKey) },
  'POST /api/key': { body: ZCreateApiKey, response: ZEnvelope(ZCreatedApiKey), status: 201 },
  'PATCH /api/key/:id': { params: ZIdParams, body: ZUpdateApiKey, response: ZEnvelope(ZApiKey) },
  'DELETE /api/key': { body: ZDeleteApiKeys, response: ZEnvelope(ZDeleted) },

  'GET /api/webhook': { response: ZEnvelope(z.array(ZWebhook)) },
  'POST /api/webhook': { body: ZCreateWebhook, response: ZEnvelope(ZCreatedWebhook), status: 201 },
  'PATCH /api/webhook/:id': { params: ZIdParams, body: ZUpdateWebhook, response: ZEnvelope(ZWebhook) },
  'DELETE /api/webhook/:id': { params: ZIdParams, response: ZEnvelope(ZDeleted) },
  'POST /api/webhook/:id/test': { params: ZIdParams, response: ZEnvelope(ZWebhookTestQueued) },
  'GET /api/webhook/:id/deliveries': {
    params: ZIdParams,
    query: ZDeliveryQuery,
    response: ZEnvelope(ZDeliveryPage),
  },

  'GET /api/aiendpoint': { response: ZEnvelope(z.array(ZAiEndpoint)) },
  'GET /api/aiendpoint/:id': { params: ZIdParams, response: ZEnvelope(ZAiEndpointRead) },
  'POST /api/aiendpoint': {
    // The route name is taken.
    errors: ['conflict'],
    body: ZCreateAiEndpoint,
    response: ZEnvelope(ZCreatedAiEndpoint),
    status: 201,
  },
  'PATCH /api/aiendpoint/:id': {
    params: ZIdParams,
    body: ZUpdateAiEndpoint,
    response: ZEnvelope(ZAiEndpoint),
  },
  'GET /api/aiendpoint/:id/upstreams': { params: ZIdParams, response: ZEnvelope(ZUpstreamHealth) },
  'GET /api/aiendpoint/:id/tools': { params: ZIdParams, response: ZEnvelope(ZMcpTools) },
  'DELETE /api/aiendpoint/:ids': { params: ZAiEndpointIdsParams, response: ZEnvelope(ZDeleted) },
  'GET /api/aiendpointShared': { response: ZEnvelope(z.array(ZSharedAiEndpoint)) },
  'GET /api/marketplace': { query: ZMarketplaceQuery, public: true, response: ZEnvelope(ZMarketplacePage) },
  'GET /api/marketplace-models': {
    query: ZMarketplaceModelsQuery,
    public: true,
    response: ZEnvelope(ZMarketplaceModelsPage),
  },
  'GET /api/marketplace/:provider': {
    params: ZProviderParams,
    public: true,
    response: ZEnvelope(ZMarketplaceProvider),
  },
  'GET /api/marketplace/:provider/:name': {
    params: ZMarketplaceParams,
    public: true,
    response: ZEnvelope(ZMarketplaceEndpoint),
  },

  ...itemCalls(ITEM_KINDS[0]),
  ...itemCalls(ITEM_KINDS[1]),
  ...itemCalls(ITEM_KINDS[2]),
  ...itemCalls(ITEM_KINDS[3]),
  ...itemCalls(ITEM_KINDS[4]),
  ...itemCalls(ITEM_KINDS[5]),
} satisfies Record<string, TCall>;

/** Every `:param` of a path is declared by its entry's `params`, under the same names. */
const paramsDeclared: [TUndeclaredParams<typeof CONSOLE_API>] extends [never]
  ? true
  : TUndeclaredParams<typeof CONSOLE_API> = true;
void paramsDeclared;

export type TConsoleApi = typeof CONSOLE_API;
export type TConsoleCall = keyof TConsoleApi;
/** The success answer of a call, as the server sends it. */
export type TAnswerOf<K extends TConsoleCall> = z.output<TConsoleApi[K]['response']>;
/** The request body of a call. */
export type TBodyOf<K extends TConsoleCall> = TConsoleApi[K] extends { body: z.ZodType }
  ? z.input<TConsoleApi[K]['body']>
  : undefined;
/** The success envelope `{ data, message? }` around `T`, as `ZEnvelope` declares it. */
export type TEnvelope<T> = z.output<ReturnType<typeof ZEnvelope<z.ZodType<T>>>>;
/** The path parameters of a call as its entry declares them (`undefined` when its path has none). */
export type TParamsOf<K extends TConsoleCall> = TConsoleApi[K] extends { params: z.ZodType }
  ? z.output<TConsoleApi[K]['params']>
  : undefined;
/** A value as the caller sends it: a coerced field (`z.coerce.number()`, input `unknown`) takes its output. */
type TSent<I, O> = unknown extends I ? O : I;
/**
 * The query of a call as the console sends it: the schema's input (defaults optional), each
 * coerced field typed by what it becomes (`limit: number`, not `unknown`).
 */
export type TQueryOf<K extends TConsoleCall> = TConsoleApi[K] extends { query: z.ZodType }
  ? {
      [F in keyof z.input<TConsoleApi[K]['query']>]: TSent<
        z.input<TConsoleApi[K]['query']>[F],
        F extends keyof z.output<TConsoleApi[K]['query']> ? z.output<TConsoleApi[K]['query']>[F] : never
      >;
    }
  : undefined;
