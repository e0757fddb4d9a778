import { describe, expect, it } from 'vitest';
import { namespacedTool, splitNamespacedTool } from './mcp-names';

describe('namespaced MCP tool names (decision 059)', () => {
  it('writes the route with `.` for its slash, then `__`, then the tool', () => {
    expect(namespacedTool('acme/docs', 'search')).toBe('acme.docs__search');
    expect(namespacedTool('acme/gpt-4.1', 'run')).toBe('acme.gpt-4D1__run');
    expect(namespacedTool('a.b_c/d:e_f', 'x')).toBe('aDbUc.dCeUf__x');
  });

  it('reads every name back to its route and tool, whatever the tool name holds', () => {
    const cases: [string, string][] = [
      ['acme/docs', 'search'],
      ['acme/docs_', '_x'],
      ['a.b/c', 'd'],
      ['a/b.c', 'd'],
      ['p-1/n:2.3_4', 'tool__with__separators'],
      ['x/y', 'T.o-o_l'],
    ];
    const names = cases.map(([route, tool]) => namespacedTool(route, tool));
    // Distinct routes and tools never share a name.
    expect(new Set(names).size).toBe(cases.length);
    for (const [i, name] of names.entries()) {
      expect(name).toMatch(/^[A-Za-z0-9_.-]+$/);
      expect(splitNamespacedTool(name)).toEqual({ routeName: cases[i]![0], tool: cases[i]![1] });
    }
  });

  it('is null for a name that is no namespaced one', () => {
    for (const name of [
      'search',
      '__search',
      'acme__search',
      'a.b.c__x',
      'acme.docs__',
      '.docs__x',
      'Acme.docs__x',
    ])
      expect(splitNamespacedTool(name), name).toBeNull();
  });
});
