/** Placeholders the quick-start keeps when the user has no key or no route yet. */
export const PLACEHOLDER_KEY = 'YOUR_API_KEY';
export const PLACEHOLDER_ROUTE = 'provider/model';
/** Spec section 2: the OpenAI-compatibility sample model. */
export const SAMPLE_MODEL = 'gpt-4o';

export interface TSnippetInput {
  /** The app's origin (APP_URL), e.g. https://air.example.com. */
  origin: string;
  apiKey: string;
  routeName: string;
}

export type TSnippetKind = 'curl' | 'node' | 'python' | 'openai';

const message = { role: 'user', content: 'Hello!' };

function body(stream = false) {
  return { model: SAMPLE_MODEL, messages: [message], stream };
}

/** A single-quoted shell word (the key and route never hold quotes, but stay safe if they do). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The quick-start snippets (spec section 2): the proxy at `<origin>/api/v1` with the key header
 * and the route header, a body of model, messages [{ role, content }] and stream.
 */
export function buildSnippets({ origin, apiKey, routeName }: TSnippetInput): Record<TSnippetKind, string> {
  const url = `${origin}/api/v1`;
  const json = JSON.stringify(body());
  const pretty = JSON.stringify(body(), null, 2);

  const curl = [
    `curl -sS -X POST ${shellQuote(url)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`x-api-key: ${apiKey}`)} \\`,
    `  -H ${shellQuote(`x-route-name: ${routeName}`)} \\`,
    `  -d ${shellQuote(json)}`,
  ].join('\n');

  const node = `const response = await fetch(${JSON.stringify(url)}, {
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    Authorization: ${JSON.stringify(`Bearer ${apiKey}`)},
    'x-route-name': ${JSON.stringify(routeName)},
  },
  body: JSON.stringify(${pretty.replace(/\n/g, '\n  ')}),
});
console.log(await response.json());`;

  const python = `import requests

response = requests.post(
    ${JSON.stringify(url)},
    headers={
        "x-api-key": ${JSON.stringify(apiKey)},
        "x-route-name": ${JSON.stringify(routeName)},
    },
    json={
        "model": ${JSON.stringify(SAMPLE_MODEL)},
        "messages": [{"role": "user", "content": "Hello!"}],
        "stream": False,
    },
)
print(response.json())`;

  const openai = `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: ${JSON.stringify(url)},
  apiKey: ${JSON.stringify(apiKey)},
  defaultHeaders: { 'x-route-name': ${JSON.stringify(routeName)} },
});

const completion = await client.chat.completions.create({
  model: ${JSON.stringify(SAMPLE_MODEL)},
  messages: [{ role: 'user', content: 'Hello!' }],
  stream: false,
});
console.log(completion.choices[0].message.content);`;

  return { curl, node, python, openai };
}

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
