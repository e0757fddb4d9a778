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
export function shellQuote(text: string): string {
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
