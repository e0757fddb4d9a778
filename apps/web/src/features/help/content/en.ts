import type { THelpSection } from './types';

/** The help page in English. `{origin}` is replaced by this server's address. */
export const HELP_EN: THelpSection[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    blocks: [
      {
        p: 'AIR puts every AI endpoint you run (agents, models, knowledge bases) behind one OpenAI-compatible gateway. Three steps take you from sign-up to your first call.',
      },
      {
        list: [
          'Register: create your account at /signup with your name, email and a password (or a social provider). Confirm the email from the link AIR sends you.',
          'Take an API key: in Account → API keys, create a key with the gateway.invoke scope. The full key (air_ followed by 40 characters) shows when it is made; members who may manage keys can reveal it again from the list, and each reveal is recorded in the activity log.',
          'Register an endpoint: in the AI endpoint registry, add an endpoint with a route name such as acme/support-bot and the URL that answers OpenAI chat completions. Or pick a shared endpoint in the marketplace.',
          'Make the first call: POST your messages to the gateway with the key and the route name. The dashboard shows the same call as cURL, NodeJS and Python with your key filled in, and each endpoint has a Try it tab.',
        ],
      },
      {
        code: 'curl {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/support-bot", "messages": [{"role": "user", "content": "Hello"}]}\'',
      },
    ],
  },
  {
    id: 'gateway',
    title: 'Gateway reference',
    blocks: [
      {
        p: 'The gateway speaks the OpenAI chat completions protocol, so the official OpenAI SDKs work with the base URL {origin}/api/v1 and an AIR key as the API key.',
      },
      {
        table: {
          head: ['Path', 'What it does'],
          rows: [
            [
              'POST /api/v1/chat/completions',
              'A chat completion, forwarded to the route named in the request.',
            ],
            ['POST /api/v1', 'The same call on the short path.'],
            ['GET /api/v1/models', 'The routes your key may call, in OpenAI’s list format.'],
          ],
        },
      },
      {
        table: {
          head: ['Header', 'Meaning'],
          rows: [
            [
              'Authorization: Bearer air_…',
              'Your AIR API key (or send it as x-api-key: air_…). Never sent to the upstream.',
            ],
            ['x-route-name', 'The route to call. When absent, the body’s "model" names the route.'],
            [
              'Content-Type: application/json',
              'The body is the OpenAI request, forwarded unchanged (except "model" when the endpoint sets an upstream model).',
            ],
            ['x-request-id (answer)', 'The id of this call, in every answer: quote it to support.'],
            ['Retry-After (answer)', 'Seconds to wait after a 429 rate_limit_exceeded.'],
            [
              'x-air-route, x-air-attempts (answer)',
              'The route that answered (a fallback’s when one answered) and the upstream calls made (0 from the cache).',
            ],
            ['x-air-cache (answer)', 'hit or miss, on routes that cache answers.'],
          ],
        },
      },
      {
        p: 'Streaming: send "stream": true and the answer arrives as server-sent events (text/event-stream), chunk by chunk as the upstream writes it; AIR never buffers a stream. Closing the connection stops the upstream call too.',
      },
      {
        code: 'curl -N {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "x-route-name: acme/support-bot" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"stream": true, "messages": [{"role": "user", "content": "Count to five"}]}\'',
      },
      {
        p: 'Errors come in OpenAI’s shape { "error": { "message", "type", "code" } }. An upstream’s own error status and body pass through unchanged.',
      },
      {
        table: {
          head: ['Status and code', 'What happened'],
          rows: [
            [
              '400 invalid_request / missing_route',
              'The body is not a JSON object, or no route is named (x-route-name header or "model").',
            ],
            [
              '401 invalid_api_key',
              'The key is missing, unknown, revoked or expired (the message says when it expired).',
            ],
            ['403 insufficient_scope', 'The key lacks the gateway.invoke scope.'],
            [
              '404 route_not_found',
              'No active route of that name that your account may call (another account’s private route answers the same).',
            ],
            ['402 quota_exceeded', 'Your plan’s calls for this month are used up.'],
            ['413 payload_too_large', 'The body is over 10 MiB.'],
            [
              '429 rate_limit_exceeded',
              'Too many calls with this key in this minute; retry after Retry-After seconds.',
            ],
            [
              '429 key_quota_exceeded',
              'This key has used its own monthly cap of calls (the message names the cap).',
            ],
            ['502 upstream_unreachable', 'The endpoint’s URL could not be reached.'],
            [
              '503 upstreams_unavailable',
              'Every upstream of the route is failing and skipped for its cooldown; retry after Retry-After seconds.',
            ],
            ['504 upstream_timeout', 'The endpoint did not answer in time (its timeout, or 120 s).'],
          ],
        },
      },
      {
        p: 'Limits: each plan sets a monthly quota of calls per account and a rate limit of calls per minute per key (Free: 1,000 calls a month, 60 a minute). The owner gets a mail at 80 % and at 100 % of the quota, and the console shows a banner with the upgrade link.',
      },
      {
        p: 'Usage metering: every forwarded call is recorded with its time, route, key, status, latency, whether it streamed, and prompt and completion tokens when the answer reports usage; tokens the gateway had to estimate are marked ≈. No request or answer body is stored. Account → Usage shows it per day, endpoint and key, with a CSV export and a request log of the last 30 days.',
      },
    ],
  },
  {
    id: 'routing',
    title: 'Routing',
    blocks: [
      {
        p: 'An endpoint can spread its calls over several upstreams, retry failures, fall back to other routes, skip an upstream that keeps failing and answer repeated calls from a cache. Set it in the endpoint’s Settings tab, under Routing and resilience; an endpoint without these settings forwards each call to its one URL.',
      },
      {
        table: {
          head: ['Setting', 'What it does'],
          rows: [
            [
              'Upstreams (1 to 8, weight 1 to 100)',
              'Each call picks one at random in proportion to its weight, among those whose circuit is closed. The first one is the endpoint URL.',
            ],
            [
              'Retry attempts (0 to 5), backoff (0 to 10,000 ms)',
              'A failure before the first byte reaches you (connection refused or reset, timeout, or a 429, 500, 502, 503, 504 answer, or Anthropic’s 529 overloaded) is tried again, on another upstream when there is one, after the backoff doubled each time with jitter, or the upstream’s Retry-After when shorter than 10 s. Other answers (400, 401, 404…) come back at once; nothing is retried once the answer has started.',
            ],
            [
              'Fallback routes (up to 3)',
              'Tried in order when the route’s attempts are used up, only if your key may call them at that moment. The body’s "model" becomes the fallback’s route.',
            ],
            [
              'Circuit breaker (1 to 100 failures, 1 to 3,600 s)',
              'An upstream that fails that many times in a row is skipped for the cooldown; then one call tries it, and a success takes it back. With several AIR servers (REDIS_URL) they open and close it together.',
            ],
            [
              'Cache answers for (0 to 86,400 s)',
              'A non-streamed 200 answer is kept that long for your account, route and request body; the same call again is answered without calling the upstream. It counts against your quota.',
            ],
          ],
        },
      },
      {
        p: 'Worked example: acme/chat runs on two providers, with one fallback. Its upstreams are https://api.provider-a.example/v1/chat/completions (weight 3) and https://api.provider-b.example/v1/chat/completions (weight 1), with 2 retry attempts, a 250 ms backoff, the circuit at 5 failures and 30 s, and the fallback route acme/chat-small. Three calls in four go to provider A. When provider A refuses connections, a call that picked it is retried on provider B after the backoff, so you still get an answer; after 5 failures in a row provider A is skipped for 30 s, then one call probes it. If both providers fail, acme/chat-small answers, and x-air-route tells you so.',
      },
      {
        code: 'curl -i {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/chat", "messages": [{"role": "user", "content": "Hi"}]}\'\n\nHTTP/1.1 200 OK\nx-air-route: acme/chat\nx-air-attempts: 2',
      },
      {
        p: 'The endpoint’s Overview shows each upstream’s state (closed, open, probing), its last failure and the last hour’s calls and failures; the request log in Account → Usage shows each call’s attempts and cache hits, and a call a fallback answered under its route with “asked for” the route you called. Keys can be limited too: when you create or edit a key, set an expiry, the only routes it may call (others answer 404 route_not_found and GET /api/v1/models lists only those) and a monthly cap of calls (past it, 429 key_quota_exceeded).',
      },
    ],
  },
  {
    id: 'providers',
    title: 'Providers',
    blocks: [
      {
        p: 'Each upstream of an endpoint has a format: the API it speaks. OpenAI (the default) gets your chat completions as you send them; Anthropic (the Messages API) and Gemini (generateContent) get them translated, and their answers come back as chat completions, streamed or not, with tool calls, finish reasons and usage. Set the format per upstream in the endpoint’s Settings tab, under Routing and resilience, and put the provider’s key in the endpoint’s upstream headers (they are stored encrypted). One route may mix formats: a call that fails on an Anthropic upstream is retried on an OpenAI one, and each upstream is sent only its own key.',
      },
      {
        table: {
          head: ['Format', 'Upstream URL and headers'],
          rows: [
            ['OpenAI', 'https://api.openai.com/v1/chat/completions, header Authorization: Bearer sk-…'],
            [
              'Anthropic',
              'https://api.anthropic.com/v1/messages, header x-api-key: sk-ant-… (anthropic-version 2023-06-01 is added when you set none). max_tokens is 4096 when the call sets none.',
            ],
            [
              'Gemini',
              'https://generativelanguage.googleapis.com/v1beta (the model comes from the call, or from the endpoint’s upstream model), header x-goog-api-key: AIza…. Image URLs must end in .png, .jpg, .jpeg, .webp, .gif, .heic or .heif, or be data URLs.',
            ],
          ],
        },
      },
      {
        p: 'Usage is read from the provider’s answer and metered and priced exactly as for an OpenAI upstream; Anthropic’s cache reads and writes count in prompt_tokens and show in prompt_tokens_details. A provider’s error comes back with its status and its message in OpenAI’s error shape. A field a provider cannot take (for Anthropic: n above 1, logprobs, logit_bias, seed or the penalties; for both: audio and file parts) is refused with 400 unsupported_parameter naming it, before anything is sent. Only chat completions are translated: a route with an Anthropic or Gemini upstream serves /api/v1/chat/completions and /api/v1/messages only.',
      },
      {
        p: 'Clients written for Anthropic (the Anthropic SDK, Claude Code with ANTHROPIC_BASE_URL) call {origin}/api/v1/messages with your AIR key as their API key and the route as the model: set the base URL to {origin}/api. To an Anthropic upstream the call goes as it is; to an OpenAI or Gemini upstream it is translated, and the answer, its events and errors come back in Anthropic’s shape, a body over 10 MiB included (413 request_too_large). The anthropic-version and anthropic-beta headers are optional: an Anthropic upstream gets yours in place of the endpoint’s, other formats get neither. /api/v1/messages/count_tokens counts a request’s prompt with AIR’s tokenizer (an estimate; nothing is sent upstream). The request log in Account → Usage shows each call’s format, client → upstream (OpenAI → Anthropic, Anthropic → OpenAI …).',
      },
      {
        p: 'Worked example, Anthropic: register acme/claude with the upstream https://api.anthropic.com/v1/messages, format Anthropic, upstream model claude-sonnet-4-5 and the header x-api-key. Worked example, Gemini: acme/gemini with https://generativelanguage.googleapis.com/v1beta, format Gemini, upstream model gemini-2.5-flash and the header x-goog-api-key. Both are called like any route:',
      },
      {
        code: 'curl {origin}/api/v1/chat/completions \\\n  -H "Authorization: Bearer air_…" -H "Content-Type: application/json" \\\n  -d \'{"model": "acme/claude", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}\'\n\n{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "Hello!"}, "finish_reason": "stop"}],\n "usage": {"prompt_tokens": 11, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 0}}}',
      },
    ],
  },
  {
    id: 'mcp',
    title: 'MCP',
    blocks: [
      {
        p: 'An endpoint can be a Model Context Protocol server: when you register it, set its protocol to MCP and its URL to the server’s Streamable HTTP address (for example https://docs.acme.example/mcp). Put the server’s own credentials in the endpoint’s upstream headers: they are stored encrypted and sent to it on every request; your agents never see them. Its Overview lists the server’s tools (Read again asks it anew). An MCP endpoint is priced per tool call only, and it is not a model: it is not listed by /api/v1/models and answers 404 unsupported_endpoint there.',
      },
      {
        p: 'Agents reach it at /api/mcp/{provider}/{name} with an AIR key that has the gateway.invoke scope, exactly as a chat route: a private route of another account, or one outside the key’s routes, answers 404 route_not_found. With the official SDK, change the URL and add the header:',
      },
      {
        code: "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nimport { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n\nconst transport = new StreamableHTTPClientTransport(new URL('{origin}/api/mcp/acme/docs'), {\n  requestInit: { headers: { Authorization: 'Bearer air_…' } },\n});\nconst client = new Client({ name: 'my-agent', version: '1.0.0' });\nawait client.connect(transport);\nconst { tools } = await client.listTools();\nconst answer = await client.callTool({ name: 'search', arguments: { query: 'tides' } });",
      },
      {
        table: {
          head: ['Message', 'How AIR counts it'],
          rows: [
            [
              'tools/call',
              'One call: it counts against the key’s rate limit, monthly cap and budget, the plan’s quota and the spend limit, is charged at the endpoint’s price per call, and is metered with its tool, status, latency and size. A result with isError is a delivered call; a JSON-RPC error (no tool ran) is free.',
            ],
            [
              'initialize, tools/list, ping, notifications, the GET stream, DELETE',
              'Free and not metered; they count against the key’s rate limit only.',
            ],
          ],
        },
      },
      {
        p: 'Sessions work when your requests land on different AIR instances: the Mcp-Session-Id AIR hands out carries the server’s own session sealed inside it, so any instance continues it. A session belongs to the key that opened it; a revoked key is refused on its next request. DELETE ends the session at the server too.',
      },
      {
        p: 'One address for every tool: /api/mcp is an MCP server of AIR’s own whose tools are those of all the MCP routes your key reaches, so an agent is configured once. Without a routes list on the key these are your account’s own MCP endpoints; with one, the routes it names (another account’s shared ones too). Each tool is named after its route and its own name: the route’s / becomes ., then __, then the tool, so search of acme/docs is acme.docs__search (a . in the route is written D, a _ is U and a : is C: acme/gpt-4.1 is acme.gpt-4D1__…). A call goes to that route’s server under the tool’s own name and is metered, limited and charged on that route exactly as at /api/mcp/{provider}/{name}; a name of no tool the key reaches is an unknown tool (JSON-RPC error -32602). /api/mcp keeps no session, so any instance answers. A client that opens its event stream (GET /api/mcp) is sent notifications/tools/list_changed whenever an endpoint changes, and lists the tools again. Both addresses answer browsers’ preflights; a web page may use a key only if the key lists its origin.',
      },
      {
        p: 'Choosing tools: on an MCP endpoint’s Overview each tool has a switch; a tool you switch off is not listed to anyone and a call to it is refused as an unknown tool. A key can be limited to some tools (MCP tools on the key’s form: a route and a tool a line, for example acme/docs search) and to read-only ones (the tools their server marks readOnlyHint). Tools outside a key’s choice are neither listed nor callable with it, at /api/mcp/{provider}/{name} and at /api/mcp alike.',
      },
    ],
  },
  {
    id: 'marketplace',
    title: 'Marketplace',
    blocks: [
      {
        p: 'The marketplace lists every endpoint that its owner made active, shared and public. Open Details to read its description and try it; call it with your own key and your own quota, exactly like your own routes.',
      },
      {
        p: 'To share yours, switch on Shared and turn off Private on the endpoint’s overview. Its upstream URL and settings stay hidden from other accounts. Account → Usage shows which organisations called your shared endpoints, per endpoint and per day.',
      },
      {
        p: 'Choosing among endpoints: each one shows, over the last 7 or 30 days and from other accounts’ calls only, its calls, success rate, uptime (the share of minutes with calls that had a success and no three failures in a row), median and 95th percentile latency, time to first token of streamed answers and tokens per second. Sort the catalog by any of them or by price, and keep only endpoints above an uptime or under a p95 latency. A provider’s name opens its page: its endpoints, their figures combined and the profile its owner writes under Account → Profile.',
      },
      {
        p: 'One model, many providers: an owner may say which model an endpoint serves (Settings → Model served, e.g. meta-llama/llama-3.1-70b-instruct). Put that model id in "model" instead of a route name and AIR picks among the shared endpoints serving it that your key may call: by default the calls are spread across them weighted by price (a provider half the price is called four times as often), or add "provider": { "sort": "price" } (always the cheapest; equal ones share the calls) or "latency", "throughput", "reliability", "only" or "ignore" (provider names, the part of a route name before the slash), "max_price" ({ "prompt", "completion", "request" } per million tokens or per call) and "allow_fallbacks" (false: the first provider only). When a provider fails before answering, the next one is called; x-air-route names the endpoint that answered, and the call is metered and charged at its price. GET /api/v1/models lists each model id with its number of providers and price range.',
      },
    ],
  },
  {
    id: 'accounts',
    title: 'Accounts and roles',
    blocks: [
      {
        p: 'An account is your organisation: its endpoints, keys, plan and users. One user may belong to several accounts and switch between them from the user menu.',
      },
      {
        table: {
          head: ['Role', 'May'],
          rows: [
            ['Owner', 'Everything, including billing and closing the account.'],
            ['Admin', 'Invite, edit and remove users, plus what a developer may.'],
            ['Developer', 'Create and manage API keys and endpoints.'],
            ['User', 'Use the console: dashboard, registry, marketplace, usage, own profile.'],
          ],
        },
      },
      {
        p: 'Two-factor sign-in, your password and notification mails are in Account. Support staff can only sign in as you to look into a problem when you switch on “Allow support to access my account” (support_enabled) in your profile.',
      },
    ],
  },
  {
    id: 'billing',
    title: 'Billing',
    blocks: [
      {
        p: 'Plans carry the monthly quota and the rate limit. Free needs no card; paid plans are charged monthly to the card in Account → Billing, and the Team plan per seat. Every charge makes an invoice you can download as PDF.',
      },
      {
        p: 'Upgrading takes effect at once, with the new quota. If a renewal fails, the plan waits for a working card; calls keep their current quota until the period ends.',
      },
      {
        p: 'Selling on the marketplace: what callers pay for your priced endpoints is on Account → Earnings, and Account → Payouts shows your balance (collected from callers, not paid out yet), what is accrued and not yet invoiced, what is pending and what was paid. At each month’s close a balance of at least the minimum (10.00 unless the platform set another) becomes a payout with a statement (PDF and CSV); a smaller one waits for the next month. Enter the bank account payouts go to on that page (an IBAN or a US routing and account number; only the last four digits are kept), or, where the platform pays through Stripe, finish Stripe’s onboarding from there. A refund or chargeback of a caller’s invoice takes back the matching part of your earnings.',
      },
    ],
  },
  {
    id: 'faq',
    title: 'Frequently asked questions',
    blocks: [
      {
        p: 'Does AIR store my prompts or answers? No. The gateway forwards bytes as they come and records only metadata (time, route, key, status, latency, token counts).',
      },
      {
        p: 'Why do I get 404 route_not_found for a route I can see? The route must be active, and either yours or shared and public. Check the spelling: route names are lower case.',
      },
      {
        p: 'Why are some token counts marked ≈? The upstream did not report usage for that call (common with streaming), so the gateway estimated them.',
      },
      {
        p: 'How do I stream with the OpenAI SDK? Pass stream: true to chat.completions.create with baseURL {origin}/api/v1; the SDK reads the event stream AIR passes through.',
      },
      {
        p: 'Where is the API reference? The Docs link in the side navigation opens the OpenAPI reference of the console API and the gateway.',
      },
    ],
  },
];
