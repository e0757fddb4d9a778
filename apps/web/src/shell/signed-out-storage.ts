// The shell renders in Node, where there is no localStorage; modules such as lib/session read it
// as they load. An empty one is a signed-out visitor on a new device: what the shell shows.
// Imported first by signin-shell.tsx, so it runs before the modules that read it.
if (typeof globalThis.localStorage === 'undefined') {
  const items = new Map<string, string>();
  const storage: Storage = {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
  globalThis.localStorage = storage;
}
