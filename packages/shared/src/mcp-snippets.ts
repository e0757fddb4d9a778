import { shellQuote } from './snippets';

// Its own module, apart from the chat snippets: the dashboard's chunk carries those, and the MCP
// ones (the registry's and the catalog's) would push it past its size budget.

export interface TMcpSnippetInput {
  /** The app's origin (APP_URL). */
  origin: string;
  routeName: string;
  /** The key to write in; absent, the snippets read it from the AIR_API_KEY environment variable. */
  apiKey?: string;
}

export type TMcpSnippetKind = 'curl' | 'node' | 'python' | 'mcp_servers';

/** The MCP protocol version the cURL example's `initialize` asks for. */
export const MCP_SNIPPET_PROTOCOL_VERSION = '2025-06-18';

/**
 * An MCP endpoint's snippets (contract 6d), for the catalog and the console's "Try it": its
 * `/api/mcp/{route}` address with cURL (`initialize`, then `tools/list` in the session it opened),
 * the official SDKs, and an MCP client's `mcpServers` entry (URL and Authorization header).
 */
export function buildMcpSnippets({
  origin,
  routeName,
  apiKey,
}: TMcpSnippetInput): Record<TMcpSnippetKind, string> {
  const url = `${origin}/api/mcp/${routeName}`;
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: MCP_SNIPPET_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'curl', version: '1' },
    },
  });
  const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const headers = [
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Accept: application/json, text/event-stream' \\`,
  ];
  const curl = [
    `URL=${shellQuote(url)}`,
    // The environment variable must expand, so that one is in double quotes.
    apiKey === undefined
      ? `AUTH="Authorization: Bearer $AIR_API_KEY"`
      : `AUTH=${shellQuote(`Authorization: Bearer ${apiKey}`)}`,
    `# initialize: the answer's Mcp-Session-Id header names the session`,
    `SESSION=$(curl -sS -D - -o /dev/null "$URL" -H "$AUTH" \\`,
    ...headers,
    `  -d ${shellQuote(initialize)} \\`,
    `  | tr -d '\\r' | awk 'tolower($1) == "mcp-session-id:" { print $2 }')`,
    `# tools/list in that session`,
    `curl -sS "$URL" -H "$AUTH" -H "Mcp-Session-Id: $SESSION" \\`,
    `  -H ${shellQuote(`Mcp-Protocol-Version: ${MCP_SNIPPET_PROTOCOL_VERSION}`)} \\`,
    ...headers,
    `  -d ${shellQuote(toolsList)}`,
  ].join('\n');
  const node = [
    `import { Client } from '@modelcontextprotocol/sdk/client/index.js';`,
    `import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';`,
    ``,
    `const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), {`,
    apiKey === undefined
      ? `  requestInit: { headers: { Authorization: \`Bearer \${process.env.AIR_API_KEY}\` } },`
      : `  requestInit: { headers: { Authorization: ${JSON.stringify(`Bearer ${apiKey}`)} } },`,
    `});`,
    `const client = new Client({ name: 'my-agent', version: '1.0.0' });`,
    `await client.connect(transport);`,
    `console.log(await client.listTools());`,
  ].join('\n');
  const python = [
    `import asyncio, os`,
    `from mcp import ClientSession`,
    `from mcp.client.streamable_http import streamablehttp_client`,
    ``,
    `async def main():`,
    apiKey === undefined
      ? `    headers = {"Authorization": f"Bearer {os.environ['AIR_API_KEY']}"}`
      : `    headers = {"Authorization": ${JSON.stringify(`Bearer ${apiKey}`)}}`,
    `    async with streamablehttp_client(${JSON.stringify(url)}, headers=headers) as (read, write, _):`,
    `        async with ClientSession(read, write) as session:`,
    `            await session.initialize()`,
    `            print(await session.list_tools())`,
    ``,
    `asyncio.run(main())`,
  ].join('\n');
  const mcpServers = JSON.stringify(
    {
      mcpServers: {
        [routeName.replace('/', '-')]: {
          type: 'http',
          url,
          // Clients such as Claude Code and Cursor expand ${VAR} in a configuration's headers.
          headers: { Authorization: `Bearer ${apiKey ?? '${AIR_API_KEY}'}` },
        },
      },
    },
    null,
    2,
  );
  return { curl, node, python, mcp_servers: mcpServers };
}
