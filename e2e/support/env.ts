export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The loopback SMTP server's mailbox, readable over HTTP by the tests (see serve.mjs). */
export const E2E_MAILBOX_URL = `http://127.0.0.1:${E2E_PORT + 1}`;
/** Where serve.mjs keeps the server's log of the run (test-results/server.log). */
export const E2E_SERVER_LOG = new URL('../../test-results/server.log', import.meta.url);
