import { z } from 'zod';

// Imported first by main.tsx, before any schema is built: zod compiles fast parsers with
// `new Function` when it may, and its probe for that is a Content Security Policy violation under
// this console's policy (script-src 'self'), reported in the browser's Issues panel even though
// the probe catches it. Interpreted parsing is fast enough for a form and an API answer.
z.config({ jitless: true });
