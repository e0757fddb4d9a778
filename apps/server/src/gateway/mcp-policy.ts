import type { TKeyAuth } from '../core/credentials';
import type { TRouteEntry } from './directory';

/*
 * Which tools of an MCP route a key may see and call (contract 6d, decision 059): not one its
 * owner switched off, one of the key's `tools` when it has that list, and one its server marks
 * read-only (`readOnlyHint: true`) when the key is limited to those. The same answer for the list
 * and the call: a tool not listed is refused as unknown.
 */

/** A tool as its server lists it: its name and annotations. */
export interface TToolFacts {
  name: string;
  annotations?: unknown;
}

/** The route's tools are filtered at all for this key (else lists pass as the server sent them). */
export function filtersTools(key: TKeyAuth, route: TRouteEntry): boolean {
  return route.disabledTools.size > 0 || key.tools !== null || key.toolsReadOnly;
}

/** The key may call this tool of the route; `readOnly` is its `readOnlyHint` (null: not known). */
export function toolAllowed(
  key: TKeyAuth,
  route: TRouteEntry,
  tool: string,
  readOnly: boolean | null,
): boolean {
  if (route.disabledTools.has(tool)) return false;
  if (key.tools !== null && !key.tools.has(`${route.routeName} ${tool}`)) return false;
  return !key.toolsReadOnly || readOnly === true;
}

export function readOnlyHint(tool: TToolFacts): boolean | null {
  const hint = (tool.annotations as { readOnlyHint?: unknown } | null | undefined)?.readOnlyHint;
  return typeof hint === 'boolean' ? hint : null;
}

export function listedToolAllowed(key: TKeyAuth, route: TRouteEntry, tool: TToolFacts): boolean {
  return toolAllowed(key, route, tool.name, readOnlyHint(tool));
}

/** The route could hold a tool this key may call (its `tools` list names none of it: skipped). */
export function routeHasToolsFor(key: TKeyAuth, routeName: string): boolean {
  if (key.tools === null) return true;
  for (const entry of key.tools) if (entry.startsWith(`${routeName} `)) return true;
  return false;
}

/** The route names a key's `tools` list names. */
export function toolRoutes(key: TKeyAuth): string[] {
  if (key.tools === null) return [];
  const names = new Set<string>();
  for (const entry of key.tools) names.add(entry.slice(0, entry.indexOf(' ')));
  return [...names].sort();
}

/**
 * The key may call this tool of the route now. Limited to read-only tools, the tool's annotation
 * is needed: read from the route's tool list (mcp-client.ts, kept 30 s); a tool the list does not
 * hold, or a list that cannot be read, is refused.
 */
export async function mayCallTool(
  key: TKeyAuth,
  route: TRouteEntry,
  tool: string,
  listTools: () => Promise<readonly TToolFacts[]>,
): Promise<boolean> {
  if (!toolAllowed(key, route, tool, true)) return false;
  if (!key.toolsReadOnly) return true;
  const listed = await listTools().catch(() => [] as TToolFacts[]);
  const found = listed.find((entry) => entry.name === tool);
  return found !== undefined && readOnlyHint(found) === true;
}
