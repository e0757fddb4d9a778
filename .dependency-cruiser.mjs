// Import cycles and the layers of docs/architecture.md, checked by `npm run lint` and `npm test`
// (decision 013). dependency-cruiser reads type-only imports too: a cycle through `import type`
// is still a cycle between the files that own those types.

// Tests may reach into a module's internals (a helper, a pure function); the rules below are about
// what the product code depends on.
const TESTS = ['^apps/server/test/', '\\.test\\.tsx?$'];

// The server's entry points: nothing below them imports them.
const ENTRIES = '(?:app|server|cli)\\.ts$';

// Which modules own which tables (decision 016). A module reads and writes only its own tables;
// it asks the owner's service for anything else.
export const TABLE_OWNERS = [
  { tables: ['users', 'sessions', 'session-endings'], owners: ['identity'] },
  { tables: ['user-identities'], owners: ['auth-social'] },
  { tables: ['one-time-tokens'], owners: ['auth-otp'] },
  { tables: ['signin-log'], owners: ['auth'] },
  { tables: ['accounts', 'account-users', 'invites'], owners: ['membership'] },
  { tables: ['activity'], owners: ['activity'] },
  { tables: ['ai-endpoints'], owners: ['aiendpoint', 'aiendpoint-shared'] },
  { tables: ['endpoint-daily'], owners: ['aiendpoint-shared'] },
  { tables: ['api-keys'], owners: ['keys'] },
  { tables: ['items'], owners: ['items'] },
  { tables: ['events'], owners: ['event'] },
  { tables: ['feedback'], owners: ['feedback'] },
  { tables: ['notification-prefs'], owners: ['notification'] },
  { tables: ['support-messages'], owners: ['support'] },
  { tables: ['usage-events', 'usage-daily', 'quota-warnings', 'meter-batches'], owners: ['usage'] },
  { tables: ['mail-outbox'], owners: ['dev-mail'] },
  { tables: ['webhooks', 'webhook-deliveries'], owners: ['webhooks'] },
  {
    tables: [
      'plans',
      'subscriptions',
      'cards',
      'invoices',
      'billing',
      'spend-limits',
      'marketplace-charges',
      'earnings-ledger',
      'invoice-refunds',
      'payouts',
      'payout-accounts',
    ],
    owners: ['billing'],
  },
];

// Tables code outside modules/ reaches only through their owner's service.
export const OUTSIDE_MODULES_FORBIDDEN = [
  'users',
  'sessions',
  'accounts',
  'account-users',
  'invites',
  'api-keys',
  'ai-endpoints',
];

const tableRules = TABLE_OWNERS.map(({ tables, owners }) => ({
  name: `tables-of-${owners[0]}`,
  severity: 'error',
  comment: `Only ${owners.join(', ')} import these tables; other modules call the owner's service.ts.`,
  from: { path: `^apps/server/src/modules/(?!(?:${owners.join('|')})/)[^/]+/`, pathNot: TESTS },
  to: { path: `^apps/server/src/db/schema/(?:${tables.join('|')})\\.ts$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Two files that need each other are one unit in two places: move the shared part out.',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-app',
      severity: 'error',
      comment: 'packages/shared is read by the server and the console; it depends on neither.',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The console talks to the server over HTTP, with the types of @air/shared.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      comment: 'The server serves the built console; it never imports its source.',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'module-through-service',
      severity: 'error',
      comment:
        "A server module uses another module only through that module's service.ts, never its " +
        'routes or internals.',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: ['^apps/server/src/modules/$1/', '^apps/server/src/modules/[^/]+/service\\.ts$'],
      },
    },
    // Tables are imported from their own file (db/schema/<table>.ts), not the barrel, so these
    // rules can see which table a module uses.
    {
      name: 'no-schema-barrel',
      severity: 'error',
      comment: 'Import a table from db/schema/<table>.ts; the barrel db/schema/index.ts is for db/ only.',
      from: { path: '^apps/server/src/', pathNot: ['^apps/server/src/db/', ...TESTS] },
      to: { path: '^apps/server/src/db/schema/index\\.ts$' },
    },
    // The layers of docs/architecture.md, bottom up: building blocks (lib, db, i18n, mail, config),
    // core (the app's frame), plugins (cross-cutting), modules (one domain each), the gateway, and
    // the entry points (app.ts, server.ts, cli). A layer imports only the layers below it.
    {
      name: 'blocks-stay-low',
      severity: 'error',
      comment:
        'lib, db, i18n, mail and config are building blocks: they know nothing of the app frame, ' +
        'the plugins, the modules, the gateway or the entry points.',
      from: { path: '^apps/server/src/(?:(?:lib|db|i18n|mail)/|config\\.ts$)', pathNot: TESTS },
      to: { path: `^apps/server/src/(?:(?:core|plugins|modules|gateway|cli)/|${ENTRIES})` },
    },
    {
      name: 'core-below-features',
      severity: 'error',
      comment:
        'core (the frame: errors, health, OpenAPI, credentials, services) imports no plugin, module or ' +
        'gateway: a part that adds to it hands its piece over (e.g. addHealthPart).',
      from: { path: '^apps/server/src/core/', pathNot: TESTS },
      to: { path: `^apps/server/src/(?:(?:plugins|modules|gateway|cli)/|${ENTRIES})` },
    },
    {
      name: 'plugins-not-features',
      severity: 'error',
      comment:
        'Cross-cutting plugins import no module or gateway: what a module hands the app is its own ' +
        'plugin.ts (identity, keys, billing), which a plugin reaches through the decorator it adds.',
      from: { path: '^apps/server/src/plugins/', pathNot: TESTS },
      to: { path: `^apps/server/src/(?:(?:modules|gateway|cli)/|${ENTRIES})` },
    },
    {
      name: 'modules-not-above',
      severity: 'error',
      comment:
        'Modules import no plugin, no gateway and no entry point: the gateway hands usage the parts ' +
        'it reports on (reportGatewayTo).',
      from: { path: '^apps/server/src/modules/', pathNot: TESTS },
      to: { path: `^apps/server/src/(?:(?:plugins|gateway|cli)/|${ENTRIES})` },
    },
    {
      name: 'gateway-not-above',
      severity: 'error',
      comment: 'The gateway imports no plugin and no entry point.',
      from: { path: '^apps/server/src/gateway/', pathNot: TESTS },
      to: { path: `^apps/server/src/(?:(?:plugins|cli)/|${ENTRIES})` },
    },
    {
      name: 'console-blocks-not-features',
      severity: 'error',
      comment:
        "The console's building blocks (lib/, components/) import no feature and no app shell: a " +
        'feature hands a block what it needs (architecture item 14).',
      from: {
        path: '^apps/web/src/(?:lib|components)/',
        pathNot: ['\\.test\\.tsx?$', '^apps/web/src/test/'],
      },
      to: { path: '^apps/web/src/(?:features|app)/' },
    },
    ...tableRules,
    {
      name: 'outside-modules-no-owned-tables',
      severity: 'error',
      comment:
        'Outside the modules (gateway, plugins, lib, jobs, the CLI) users and sessions are ' +
        "read through identity's service.ts, accounts, members and invites through membership's, " +
        "API keys through keys' and endpoints through aiendpoint's (decision 016). SQL text is held to " +
        'the same owners by apps/server/test/table-owners.test.ts.',
      from: { path: '^apps/server/src/', pathNot: ['^apps/server/src/(?:modules|db)/', ...TESTS] },
      to: {
        path: `^apps/server/src/db/schema/(?:${OUTSIDE_MODULES_FORBIDDEN.join('|')})\\.ts$`,
      },
    },
    {
      name: 'services-not-web-framework',
      severity: 'error',
      comment:
        'A service takes plain values (core/services.ts: TServices, TCaller), never Fastify, so a job ' +
        "or a worker can call it (decision 016). Only a module's web layer imports fastify.",
      from: {
        path: '^apps/server/src/modules/',
        pathNot: [
          '/routes\\.ts$',
          '-route\\.ts$',
          '^apps/server/src/modules/billing/webhook\\.ts$',
          '^apps/server/src/modules/auth-social/flow-cookie\\.ts$',
          '^apps/server/src/modules/activity/actor\\.ts$',
          '^apps/server/src/modules/usage/quota-warnings\\.ts$',
          ...TESTS,
        ],
      },
      to: { path: '(^|/)node_modules/fastify/' },
    },
    {
      name: 'outside-modules-through-service',
      severity: 'error',
      comment:
        'The gateway, plugins, jobs and the CLI use a module only through its service.ts ' +
        '(modules are found and registered by core/load-modules.ts, not imported).',
      from: { path: '^apps/server/src/', pathNot: ['^apps/server/src/modules/', ...TESTS] },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: '^apps/server/src/modules/[^/]+/service\\.ts$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not crawled (doNotFollow) but stays in the graph, so a rule can name a package.
    exclude: { path: ['(^|/)dist/', '^apps/server/drizzle/'] },
    // Count `import type` as a dependency: the console's route-table cycle was type-only.
    tsPreCompilationDeps: true,
    // The console's `@/` alias; the server and the shared package use relative paths.
    tsConfig: { fileName: 'apps/web/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
