import type { TConsoleCall } from './api';
import { ITEM_KINDS, type TItemKind } from './schemas/item';

/**
 * How the API document names each call of the console's call table (api.ts): a stable camelCase
 * `operationId` (what client generators name their methods after, so never renamed) and a one-line
 * summary. Beside the table rather than in it so each stays one line; `satisfies` makes it cover
 * every call of the table and nothing else, and core/route.ts puts both on the route.
 */
export interface TOperation {
  operationId: string;
  summary: string;
}

const op = (operationId: string, summary: string): TOperation => ({ operationId, summary });

type TItemOperations<K extends TItemKind> = Record<
  | `GET /api/${K}`
  | `GET /api/${K}/:id`
  | `POST /api/${K}`
  | `PATCH /api/${K}/:id`
  | `DELETE /api/${K}`
  | `DELETE /api/${K}/:ids`,
  TOperation
>;

/** The six operations of a name-only collection, named after it (`listAiroute`, `getAiroute`, ...). */
function itemOperations<K extends TItemKind>(kind: K): TItemOperations<K> {
  const name = kind.charAt(0).toUpperCase() + kind.slice(1);
  return {
    [`GET /api/${kind}`]: op(`list${name}`, `List the account's ${kind} items`),
    [`GET /api/${kind}/:id`]: op(`get${name}`, `Read one ${kind} item`),
    [`POST /api/${kind}`]: op(`create${name}`, `Create a ${kind} item`),
    [`PATCH /api/${kind}/:id`]: op(`update${name}`, `Rename a ${kind} item`),
    [`DELETE /api/${kind}`]: op(`delete${name}List`, `Delete ${kind} items listed in the body`),
    [`DELETE /api/${kind}/:ids`]: op(
      `delete${name}ByIds`,
      `Delete ${kind} items by id (one or comma-separated)`,
    ),
  } as TItemOperations<K>;
}

export const CONSOLE_OPERATIONS = {
  'POST /api/account': op('signUp', 'Create an account and sign its owner in'),
  'GET /api/account/plans': op('listPlans', 'The plans an account can choose'),
  'GET /api/account/plan': op('getPlan', "The account's plan and its limits"),
  'POST /api/account/plan': op('choosePlan', 'Choose a plan (may ask for a card payment first)'),
  'PATCH /api/account/plan': op('changePlan', 'Change the plan (may ask for a card payment first)'),
  'GET /api/account/plan/preview': op(
    'previewPlanChange',
    'Preview a plan change: seats, proration, amount due',
  ),
  'DELETE /api/account': op('deleteAccount', 'Delete the account (password confirmed)'),
  'GET /api/account/usage': op('getUsage', "The account's usage this period"),
  'GET /api/account/usage/insight': op('getUsageInsight', 'Usage broken down by route, key and day'),
  'GET /api/account/usage/log': op('getUsageLog', 'The request log: one line per gateway call'),
  'GET /api/account/usage/limits': op(
    'getLimitsState',
    'The limits reached this period and the calls refused',
  ),
  'GET /api/account/overview': op('getOverview', "The dashboard's overview of the account"),
  'GET /api/account/activity': op('listActivity', "The account's activity log, a page at a time"),

  'GET /api/billing/config': op('getBillingConfig', 'How this server takes card payments'),
  'GET /api/account/subscription': op('getSubscription', "The account's subscription, if any"),
  'GET /api/account/invoice': op('listInvoices', "The account's invoices"),
  'GET /api/account/earnings': op('getEarnings', "A provider's earnings from the marketplace"),
  'GET /api/account/marketplace-profile': op('getMarketplaceProfile', "The account's marketplace profile"),
  'PUT /api/account/marketplace-profile': op(
    'setMarketplaceProfile',
    "Write the account's marketplace profile",
  ),
  'PATCH /api/account/spend-limit': op('setSpendLimit', "Set the account's monthly spend limit"),
  'GET /api/account/payouts': op('getPayouts', "A provider's balance, accrued earnings and payouts"),
  'GET /api/account/payout-account': op('getPayoutAccount', "Where the account's payouts go"),
  'PUT /api/account/payout-account': op(
    'setPayoutAccount',
    'Set where payouts go (a bank account, or Stripe Connect onboarding)',
  ),
  'GET /api/account/card': op('getCard', "The account's card on file, if any"),
  'PATCH /api/account/card': op('updateCard', 'Replace the card on file (may ask for confirmation)'),
  'POST /api/account/subscription/authorize': op('authorizeSubscription', 'Authorize a pending payment'),
  'POST /api/account/upgrade': op('upgradePlan', 'Upgrade to a paid plan (may ask for a card payment first)'),
  'POST /api/billing/local/token': op('createLocalCardToken', 'Tokenize a card (local processor)'),
  'POST /api/billing/local/confirm': op('confirmLocalPayment', 'Confirm a card payment (local processor)'),

  'GET /api/account/users': op('listMembers', "The account's members and pending invitations"),
  'POST /api/invite': op('inviteMembers', 'Invite people to the account by email'),
  'DELETE /api/invite': op('deleteInvites', 'Withdraw the invitations listed in the body'),
  'DELETE /api/invite/:id': op('deleteInvite', 'Withdraw one invitation by its id'),
  'GET /api/invite/:token': op('getInvite', "Read an invitation by its link's token"),
  'PATCH /api/user/:id': op('changeMemberRole', "Change a member's role"),

  'GET /api/user/sessions': op('listSessions', "The signed-in user's sessions"),
  'DELETE /api/user/sessions': op('signOutOtherSessions', 'Sign out every other session'),
  'DELETE /api/user/sessions/:id': op('signOutSession', 'Sign out one session'),

  'GET /api/utility/config': op('getUtilityConfig', "The server's public settings for the console"),
  'POST /api/utility/mail': op('sendSupportMail', 'Write to support'),

  'POST /api/auth': op('signIn', 'Sign in with email and password'),
  'GET /api/auth': op('getAuthStatus', 'Whether the caller is signed in'),
  'DELETE /api/auth': op('signOut', 'Sign out this session'),
  'POST /api/auth/switch': op('switchAccount', 'Switch to another account of the user'),
  'POST /api/auth/password/reset/request': op('requestPasswordReset', 'Mail a password reset link'),
  'POST /api/auth/password/reset': op('resetPassword', "Set a new password with a reset link's token"),
  'POST /api/auth/magic': op('requestMagicLink', 'Mail a sign-in link'),
  'POST /api/auth/magic/verify': op('verifyMagicLink', "Sign in with a sign-in link's token"),
  'POST /api/auth/otp': op('signInWithOtp', 'Complete a sign-in with a two-factor code'),
  'POST /api/auth/impersonate': op('impersonate', 'Sign in as another user (administrators)'),
  'GET /api/auth/providers': op('listSocialProviders', 'The social sign-in providers configured'),

  'GET /api/user': op('getCurrentUser', 'The signed-in user, or the calling API key'),
  'PATCH /api/user': op('updateCurrentUser', "Update the signed-in user's profile"),
  'POST /api/user': op('acceptInvite', 'Sign up from an invitation'),
  'DELETE /api/user': op('deleteCurrentUser', 'Delete the signed-in user (password confirmed)'),
  'DELETE /api/user/:id': op('removeMember', 'Remove a member from the account'),
  'GET /api/user/permissions': op('getPermissions', "The signed-in user's permissions"),
  'PUT /api/user/password': op('changePassword', "Change the signed-in user's password"),
  'POST /api/user/verify': op('verifyEmail', "Verify the user's email with its link's token"),
  'POST /api/user/verify/request': op('requestEmailVerification', 'Mail a new email verification link'),
  'PUT /api/user/2fa': op('setTwoFactor', 'Turn two-factor sign-in on or off'),
  'POST /api/user/2fa/verify': op('verifyTwoFactor', 'Confirm two-factor sign-in with a first code'),

  'GET /api/notification': op('getNotificationPrefs', "The user's notification preferences"),
  'PATCH /api/notification': op('updateNotificationPrefs', "Update the user's notification preferences"),
  'POST /api/feedback': op('sendFeedback', 'Send feedback about the console'),
  'POST /api/event': op('recordEvent', 'Record a console event'),

  'GET /api/key/scopes': op('listApiKeyScopes', 'The scopes an API key can carry'),
  'GET /api/key': op('listApiKeys', "The account's API keys and their use this period"),
  'GET /api/key/:id': op('getApiKey', 'Read one API key'),
  'POST /api/key': op('createApiKey', 'Create an API key (its secret is shown once)'),
  'PATCH /api/key/:id': op('updateApiKey', 'Update an API key'),
  'DELETE /api/key': op('deleteApiKeys', 'Revoke the API keys listed in the body'),

  'GET /api/webhook': op('listWebhooks', "The account's webhooks"),
  'POST /api/webhook': op('createWebhook', 'Create a webhook (its secret is shown once)'),
  'PATCH /api/webhook/:id': op('updateWebhook', 'Update a webhook'),
  'DELETE /api/webhook/:id': op('deleteWebhook', 'Delete a webhook'),
  'POST /api/webhook/:id/test': op('testWebhook', 'Queue a test event to a webhook'),
  'GET /api/webhook/:id/deliveries': op('listWebhookDeliveries', "A webhook's latest deliveries"),

  'GET /api/aiendpoint': op('listAiEndpoints', "The account's AI endpoints"),
  'GET /api/aiendpoint/:id': op('getAiEndpoint', 'Read one AI endpoint'),
  'POST /api/aiendpoint': op('createAiEndpoint', 'Register an AI endpoint'),
  'PATCH /api/aiendpoint/:id': op('updateAiEndpoint', 'Update an AI endpoint'),
  'GET /api/aiendpoint/:id/upstreams': op('getUpstreamHealth', "The health of an endpoint's upstreams"),
  'GET /api/aiendpoint/:id/tools': op('listMcpTools', "An MCP endpoint's tools, read from its server now"),
  'DELETE /api/aiendpoint/:ids': op(
    'deleteAiEndpoints',
    'Delete AI endpoints by id (one or comma-separated)',
  ),
  'GET /api/aiendpointShared': op(
    'listSharedAiEndpoints',
    'The endpoints other accounts share with this one',
  ),
  'GET /api/marketplace': op('listMarketplace', 'The public marketplace, a page at a time'),
  'GET /api/marketplace-models': op('listMarketplaceModels', "The marketplace's models, a page at a time"),
  'GET /api/marketplace/:provider': op('getMarketplaceProvider', "A provider's marketplace page"),
  'GET /api/marketplace/:provider/:name': op('getMarketplaceEndpoint', 'One endpoint of the marketplace'),

  ...itemOperations(ITEM_KINDS[0]),
  ...itemOperations(ITEM_KINDS[1]),
  ...itemOperations(ITEM_KINDS[2]),
  ...itemOperations(ITEM_KINDS[3]),
  ...itemOperations(ITEM_KINDS[4]),
  ...itemOperations(ITEM_KINDS[5]),
} satisfies Record<TConsoleCall, TOperation>;
