/*
 * A tool's name at AIR's one MCP address, `/api/mcp` (contract 6d, decision 059): the route, then
 * `__`, then the tool's own name. MCP tool names may only use letters, digits, `_`, `-` and `.`;
 * route names are lower case (`[a-z0-9._-]` and `:` after the slash), so the route's `/` is written
 * `.`, and the three characters that would make the name ambiguous or invalid are written as
 * capitals: `.` as `D`, `_` as `U`, `:` as `C`. `acme/docs` + `search` is `acme.docs__search`,
 * `acme/gpt-4.1` + `run` is `acme.gpt-4D1__run`. The route part then holds no `_`, so the first
 * `__` ends it, whatever the tool's name holds; every route and tool has one name and back.
 */

const ESCAPES: Record<string, string> = { '.': 'D', _: 'U', ':': 'C' };
const UNESCAPES: Record<string, string> = { D: '.', U: '_', C: ':' };

export const MCP_NAME_SEPARATOR = '__';

/** The namespaced name of `tool` of route `routeName` (`provider/name`). */
export function namespacedTool(routeName: string, tool: string): string {
  const slash = routeName.indexOf('/');
  const escape = (part: string) => part.replace(/[._:]/g, (char) => ESCAPES[char]!);
  return `${escape(routeName.slice(0, slash))}.${escape(routeName.slice(slash + 1))}${MCP_NAME_SEPARATOR}${tool}`;
}

/** The route and tool a namespaced name stands for, or null when it is none. */
export function splitNamespacedTool(name: string): { routeName: string; tool: string } | null {
  const at = name.indexOf(MCP_NAME_SEPARATOR);
  if (at <= 0) return null;
  const route = name.slice(0, at);
  const tool = name.slice(at + MCP_NAME_SEPARATOR.length);
  const dot = route.indexOf('.');
  if (dot <= 0 || dot === route.length - 1 || route.indexOf('.', dot + 1) !== -1 || tool === '') return null;
  if (!/^[a-z0-9.DUC-]+$/.test(route)) return null;
  const unescape = (part: string) => part.replace(/[DUC]/g, (char) => UNESCAPES[char]!);
  return { routeName: `${unescape(route.slice(0, dot))}/${unescape(route.slice(dot + 1))}`, tool };
}
