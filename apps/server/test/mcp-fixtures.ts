import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** One request the MCP server received: its method and headers (what AIR sent it). */
export interface TMcpSeen {
  method: string;
  headers: IncomingHttpHeaders;
}

/** The tools every session of the fixture server has. */
export function buildDocsServer(): McpServer {
  const server = new McpServer({ name: 'air-test-docs', version: '1.0.0' });
  server.registerTool(
    'search',
    {
      description: 'Searches the documents',
      inputSchema: { query: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ query }) => ({ content: [{ type: 'text', text: `found: ${query}` }] }),
  );
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'the tool failed' }],
    isError: true,
  }));
  server.registerTool(
    'count',
    { description: 'Counts to three with progress notifications', inputSchema: {} },
    async (_args, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        for (let progress = 1; progress <= 3; progress++)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 3 },
          });
      return { content: [{ type: 'text', text: 'counted' }] };
    },
  );
  server.registerResource(
    'guide',
    'docs://guide',
    { description: 'The user guide', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Guide' }] }),
  );
  server.registerPrompt(
    'summarize',
    { description: 'Summarizes a document', argsSchema: { doc: z.string() } },
    ({ doc }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${doc}` } }] }),
  );
  return server;
}

/**
 * An MCP server built with the official SDK, stateful (it issues its own `Mcp-Session-Id` and
 * refuses any other with 404), over Streamable HTTP on a loopback port: what AIR proxies in the
 * MCP tests. `seen` holds every request it got.
 */
export async function startMcpServer(buildServer: () => McpServer = buildDocsServer) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const seen: TMcpSeen[] = [];
  const http = createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && !known) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
      );
      return;
    }
    if (known) return void known.handleRequest(req, res);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
      },
    });
    void buildServer()
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    sessions,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

export type TMcpServer = Awaited<ReturnType<typeof startMcpServer>>;

/** An SDK client connected to `url` with an AIR key (the one header an agent changes). */
export async function connectClient(url: string, key: string, sessionId?: string) {
  const client = new Client({ name: 'air-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    ...(sessionId ? { sessionId } : {}),
  });
  await client.connect(transport);
  return { client, transport };
}
