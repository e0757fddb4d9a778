/** The JSON-RPC response to `id` in an answer: a JSON body or an event stream's events. */
export function responseIn(
  text: string,
  eventStream: boolean,
  id: number | string,
): Record<string, unknown> | null {
  const candidates = eventStream
    ? text.split(/\r?\n\r?\n/).map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
          .join('\n'),
      )
    : [text];
  for (const candidate of candidates) {
    try {
      const parsed = JSON.parse(candidate) as unknown;
      for (const message of Array.isArray(parsed) ? parsed : [parsed])
        if (message && typeof message === 'object' && (message as { id?: unknown }).id === id)
          return message as Record<string, unknown>;
    } catch {
      // Not JSON (a comment, an empty event): skipped.
    }
  }
  return null;
}
