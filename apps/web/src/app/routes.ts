import type { ComponentType } from 'react';
import type { TRouteRequirement } from '@air/shared/route-guard';

/**
 * The console's route table (spec section 2) as data: path, layout, required permission, title key
 * (`common:title.<key>`) and the lazily loaded page. The router is built from this table, so a page
 * added here is routed, guarded and titled. See docs/decisions/003-scaffold-routes.md for the
 * /air, /airs, /search and /searchs readings.
 */
export type TLayout =
  | 'app'
  | 'account'
  | 'account-basic'
  | 'auth'
  | 'auth-centred'
  | 'onboarding'
  | 'air'
  | 'airpublic'
  | 'airpublicfull'
  | 'plain';

export interface TRouteMeta {
  path: string;
  layout: TLayout;
  permission: TRouteRequirement;
  title: string;
  page: () => Promise<{ default: ComponentType }>;
}

export const ROUTES: readonly TRouteMeta[] = [
  {
    path: '/',
    layout: 'auth',
    permission: null,
    title: 'signin',
    page: () => import('@/features/auth/routes/signin'),
  },
  {
    path: '/signin',
    layout: 'auth',
    permission: null,
    title: 'signin',
    page: () => import('@/features/auth/routes/signin'),
  },
  {
    path: '/signup',
    layout: 'auth',
    permission: null,
    title: 'signup',
    page: () => import('@/features/auth/routes/signup'),
  },
  {
    path: '/signin/otp',
    layout: 'auth',
    permission: null,
    title: 'signinOtp',
    page: () => import('@/features/auth/routes/signin-otp'),
  },
  {
    path: '/signin/social',
    layout: 'auth-centred',
    permission: null,
    title: 'signinSocial',
    page: () => import('@/features/auth/routes/signin-social'),
  },
  {
    path: '/magic',
    layout: 'auth-centred',
    permission: null,
    title: 'magic',
    page: () => import('@/features/auth/routes/magic'),
  },
  {
    path: '/forgotpassword',
    layout: 'auth',
    permission: null,
    title: 'forgotPassword',
    page: () => import('@/features/auth/routes/forgot-password'),
  },
  {
    path: '/resetpassword',
    layout: 'auth',
    permission: null,
    title: 'resetPassword',
    page: () => import('@/features/auth/routes/reset-password'),
  },
  {
    path: '/signin/impersonate',
    layout: 'auth-centred',
    permission: null,
    title: 'impersonate',
    page: () => import('@/features/auth/routes/impersonate'),
  },
  {
    path: '/signup/user',
    layout: 'auth',
    permission: null,
    title: 'signupUser',
    page: () => import('@/features/auth/routes/signup-user'),
  },
  {
    path: '/signup/verify',
    layout: 'auth',
    permission: 'user',
    title: 'signupVerify',
    page: () => import('@/features/auth/routes/signup-verify'),
  },
  {
    path: '/signup/plan',
    layout: 'auth',
    permission: 'owner',
    title: 'signupPlan',
    page: () => import('@/features/auth/routes/signup-plan'),
  },
  {
    path: '/welcome',
    layout: 'onboarding',
    permission: 'user',
    title: 'welcome',
    page: () => import('@/features/onboarding/routes/welcome'),
  },
  {
    path: '/dashboard',
    layout: 'app',
    permission: 'user',
    title: 'dashboard',
    page: () => import('@/features/dashboard/routes/dashboard'),
  },
  {
    path: '/registry',
    layout: 'app',
    permission: 'user',
    title: 'registry',
    page: () => import('@/features/registry/routes/registry'),
  },
  {
    path: '/aiendpoints',
    layout: 'app',
    permission: 'user',
    title: 'registry',
    page: () => import('@/features/registry/routes/registry'),
  },
  {
    path: '/aiendpoints/:id',
    layout: 'app',
    permission: 'user',
    title: 'endpoint',
    page: () => import('@/features/registry/routes/endpoint'),
  },
  {
    path: '/mkt',
    layout: 'air',
    permission: 'signed-in',
    title: 'mkt',
    page: () => import('@/features/marketplace/routes/mkt'),
  },
  {
    path: '/marketplace',
    layout: 'airpublic',
    permission: null,
    title: 'marketplace',
    page: () => import('@/features/marketplace/routes/catalog'),
  },
  {
    path: '/marketplace/:provider',
    layout: 'airpublic',
    permission: null,
    title: 'marketplaceProvider',
    page: () => import('@/features/marketplace/routes/provider'),
  },
  {
    path: '/marketplace/:provider/:name',
    layout: 'airpublic',
    permission: null,
    title: 'marketplaceEndpoint',
    page: () => import('@/features/marketplace/routes/endpoint'),
  },
  {
    path: '/mktfull',
    layout: 'airpublicfull',
    permission: null,
    title: 'marketplace',
    page: () => import('@/features/air/routes/air-placeholder'),
  },
  {
    path: '/airindex',
    layout: 'air',
    permission: null,
    title: 'air',
    page: () => import('@/features/air/routes/air-placeholder'),
  },
  {
    path: '/air',
    layout: 'airpublic',
    permission: null,
    title: 'air',
    page: () => import('@/features/air/routes/air-placeholder'),
  },
  {
    path: '/airfull',
    layout: 'airpublicfull',
    permission: null,
    title: 'air',
    page: () => import('@/features/air/routes/air-placeholder'),
  },
  {
    path: '/account',
    layout: 'app',
    permission: 'user',
    title: 'account',
    page: () => import('@/features/account/routes/account-home'),
  },
  {
    path: '/account/usage',
    layout: 'account',
    permission: 'user',
    title: 'usage',
    page: () => import('@/features/usage/routes/usage'),
  },
  {
    path: '/account/profile',
    layout: 'account',
    permission: 'user',
    title: 'profile',
    page: () => import('@/features/account/routes/profile'),
  },
  {
    path: '/account/password',
    layout: 'account',
    permission: 'user',
    title: 'password',
    page: () => import('@/features/account/routes/password'),
  },
  {
    path: '/account/2fa',
    layout: 'account',
    permission: 'user',
    title: 'twoFactor',
    page: () => import('@/features/account/routes/two-factor'),
  },
  {
    path: '/account/notifications',
    layout: 'account',
    permission: 'user',
    title: 'notifications',
    page: () => import('@/features/account/routes/notifications'),
  },
  {
    path: '/account/billing',
    layout: 'account',
    permission: 'owner',
    title: 'billing',
    page: () => import('@/features/billing/routes/billing'),
  },
  {
    path: '/account/earnings',
    layout: 'account',
    permission: 'owner',
    title: 'earnings',
    page: () => import('@/features/earnings/routes/earnings'),
  },
  {
    path: '/account/upgrade',
    layout: 'account',
    permission: 'owner',
    title: 'upgrade',
    page: () => import('@/features/billing/routes/upgrade'),
  },
  {
    path: '/account/apikeys',
    layout: 'account',
    permission: 'developer',
    title: 'apikeys',
    page: () => import('@/features/apikeys/routes/api-keys'),
  },
  {
    path: '/account/apikeys/create',
    layout: 'account',
    permission: 'developer',
    title: 'apikeyCreate',
    page: () => import('@/features/apikeys/routes/api-key-edit'),
  },
  {
    path: '/account/apikeys/edit',
    layout: 'account',
    permission: 'developer',
    title: 'apikeyEdit',
    page: () => import('@/features/apikeys/routes/api-key-edit'),
  },
  {
    path: '/account/users',
    layout: 'account',
    permission: 'admin',
    title: 'users',
    page: () => import('@/features/account/routes/users'),
  },
  {
    path: '/help',
    layout: 'app',
    permission: 'user',
    title: 'help',
    page: () => import('@/features/help/routes/help'),
  },
  {
    path: '/newitems',
    layout: 'app',
    permission: 'user',
    title: 'newitemList',
    page: () => import('@/features/scaffold/routes/newitem-list'),
  },
  {
    path: '/newitems/:id',
    layout: 'app',
    permission: 'user',
    title: 'newitemDetail',
    page: () => import('@/features/scaffold/routes/newitem-detail'),
  },
  {
    path: '/newitemtwos',
    layout: 'app',
    permission: 'user',
    title: 'newitemtwoList',
    page: () => import('@/features/scaffold/routes/newitemtwo-list'),
  },
  {
    path: '/newitemtwos/:id',
    layout: 'app',
    permission: 'user',
    title: 'newitemtwoDetail',
    page: () => import('@/features/scaffold/routes/newitemtwo-detail'),
  },
  {
    path: '/endpointtests',
    layout: 'app',
    permission: 'user',
    title: 'endpointtestList',
    page: () => import('@/features/scaffold/routes/endpointtest-list'),
  },
  {
    path: '/endpointtests/:id',
    layout: 'app',
    permission: 'user',
    title: 'endpointtestDetail',
    page: () => import('@/features/scaffold/routes/endpointtest-detail'),
  },
  {
    path: '/airoutes',
    layout: 'app',
    permission: 'user',
    title: 'airouteList',
    page: () => import('@/features/scaffold/routes/airoute-list'),
  },
  {
    path: '/airoutes/:id',
    layout: 'app',
    permission: 'user',
    title: 'airouteDetail',
    page: () => import('@/features/scaffold/routes/airoute-detail'),
  },
  {
    path: '/airs',
    layout: 'app',
    permission: 'user',
    title: 'airList',
    page: () => import('@/features/scaffold/routes/air-list'),
  },
  {
    path: '/airs/:id',
    layout: 'app',
    permission: 'user',
    title: 'airDetail',
    page: () => import('@/features/scaffold/routes/air-detail'),
  },
  {
    path: '/air/:id',
    layout: 'app',
    permission: 'user',
    title: 'airDetail',
    page: () => import('@/features/scaffold/routes/air-detail'),
  },
  {
    path: '/search',
    layout: 'app',
    permission: 'user',
    title: 'searchList',
    page: () => import('@/features/scaffold/routes/search-list'),
  },
  {
    path: '/search/:id',
    layout: 'app',
    permission: 'user',
    title: 'searchDetail',
    page: () => import('@/features/scaffold/routes/search-detail'),
  },
  {
    path: '/searchs/:id',
    layout: 'app',
    permission: 'user',
    title: 'searchDetail',
    page: () => import('@/features/scaffold/routes/search-detail'),
  },
  {
    path: '/notfound',
    layout: 'plain',
    permission: null,
    title: 'notFound',
    page: () => import('@/features/errors/routes/not-found'),
  },
  {
    path: '/404',
    layout: 'plain',
    permission: null,
    title: 'notFound',
    page: () => import('@/features/errors/routes/not-found'),
  },
];
