// Imported first by main.tsx, before any schema is built: zod compiles fast parsers with
// `new Function` when it may, and its probe for that is a Content Security Policy violation under
// this console's policy (script-src 'self'), reported in the browser's Issues panel even though
// the probe catches it. `jitless` skips the probe; interpreted parsing is fast enough for a form
// and an API answer. zod keeps its configuration on this global (zod/v4/core's globalConfig, the
// object `z.config()` writes to): set here so the entry chunk does not carry zod itself (the
// sign-in route's budget), and onto zod's own object if zod was loaded first.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
(scope.__zod_globalConfig ??= {}).jitless = true;

export {};
