import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf, withServer } from '../support/users';

/*
 * Issue 41: an MCP server registered in the console. Its owner registers it as an MCP endpoint,
 * sees the server's tools on its page (read through AIR), switches one off, shares it, and finds
 * it in the catalog with its MCP client configuration.
 */

const stamp = Date.now().toString(36);

/** An SDK-built MCP server without sessions on a loopback port (each request its own server). */
async function startMcpServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const mcp = new McpServer({ name: 'e2e-docs', version: '1.0.0' });
    mcp.registerTool(
      'search',
      {
        description: 'Searches the documents',
        inputSchema: { query: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ query }) => ({ content: [{ type: 'text', text: `found: ${query}` }] }),
    );
    mcp.registerTool(
      'purge',
      { description: 'Deletes every document', inputSchema: {}, annotations: { destructiveHint: true } },
      async () => ({ content: [{ type: 'text', text: 'purged' }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

test('register an MCP endpoint, see its tools, switch one off, share it, find it in the catalog', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withServer(startMcpServer, async (mcp) => {
    const owner = await createUser(request, 'Mia Tools', 'mcp', { accountName: 'Mia Docs' });
    await useSessionOf(page, owner);
    const route = `mia-${stamp}/docs`;
    await page.goto('/registry');
    await page.getByRole('button', { name: 'New' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Route name').fill(route);
    await dialog.getByLabel('Endpoint URL').fill(mcp.url);
    await dialog.getByRole('combobox', { name: 'Protocol' }).click();
    await page.getByRole('option', { name: 'MCP server' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('row', { name: route }).getByRole('code').click();
    await expect(page.getByRole('heading', { level: 1, name: route })).toBeVisible();

    // The server's tools, read by AIR as an MCP client, with their hints.
    const tools = page.getByRole('list', { name: 'Tools' });
    await expect(tools.getByRole('listitem')).toHaveCount(2);
    const purge = tools.getByRole('listitem').filter({ hasText: 'purge' });
    await expect(purge).toContainText('Destructive');
    await expect(tools.getByRole('listitem').filter({ hasText: 'search' })).toContainText('Read-only');
    // Switched off for callers: saved, and still off after a reload.
    await purge.getByRole('switch', { name: 'Callers may use purge' }).click();
    await expect(purge).toContainText('Switched off');
    await page.reload();
    await expect(
      page.getByRole('list', { name: 'Tools' }).getByRole('switch', { name: 'Callers may use purge' }),
    ).not.toBeChecked();

    // Shared and public: in the catalog, as an MCP server with a client configuration.
    await page.getByRole('switch', { name: 'Shared' }).click();
    await expect(page.getByRole('switch', { name: 'Shared' })).toBeChecked();
    await page.getByRole('switch', { name: 'Private' }).click();
    await expect(page.getByRole('switch', { name: 'Private' })).not.toBeChecked();
    await page.goto('/marketplace');
    await page.getByRole('searchbox', { name: 'Search' }).fill(route);
    // The search has settled into the address, so the card below is the filtered list's.
    await expect(page).toHaveURL(/[?&]q=/);
    const card = page.getByTestId('catalog-card').filter({ hasText: route });
    await expect(card).toHaveCount(1);
    await card.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/marketplace/mia-${stamp}/docs$`));
    await expect(page.getByTestId('snippet-curl')).toContainText(`/api/mcp/${route}`);
  });
});
