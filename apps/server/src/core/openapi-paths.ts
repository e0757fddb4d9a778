interface TParameter {
  in: string;
  name: string;
  description?: string;
  [key: string]: unknown;
}
type TOperation = { parameters?: TParameter[] } & Record<string, unknown>;
type TPathItem = Record<string, TOperation>;

/** What a renamed path parameter takes on its own call, said where its name no longer does. */
const TAKES: Record<string, string> = {
  ids: 'One id, or a comma-separated list of ids (each is deleted)',
  token: "The invitation's token, from the link in its email (not its id)",
};

/** `/api/key/{id}` → `/api/key/{}`: paths that differ only by their parameters' names are one. */
const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const namesOf = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

/**
 * The wire paths the spec and the console use name one segment differently by method
 * (`GET /api/aiendpoint/:id` and `DELETE /api/aiendpoint/:ids`, `DELETE /api/invite/:id` and
 * `GET /api/invite/:token`), which OpenAPI forbids: one path template, one set of names. The
 * routes keep their wire paths; the document lists such calls under the first path registered,
 * with its parameter names, and each renamed parameter's description says what the call takes.
 * Used as @fastify/swagger's `transformObject`, on the built document.
 */
export function mergeClashingPaths<T extends { paths?: object }>(document: T): T {
  if (!document.paths) return document;
  const firstOfShape = new Map<string, string>();
  const paths: Record<string, TPathItem> = {};
  for (const [path, item] of Object.entries(document.paths) as [string, TPathItem][]) {
    const kept = firstOfShape.get(shapeOf(path));
    if (kept === undefined) {
      firstOfShape.set(shapeOf(path), path);
      paths[path] = item;
      continue;
    }
    const from = namesOf(path);
    const to = namesOf(kept);
    const merged = { ...paths[kept] };
    for (const [method, operation] of Object.entries(item)) {
      if (merged[method]) throw new Error(`${method.toUpperCase()} ${path} clashes with ${kept}`);
      merged[method] = renameParameters(operation, from, to);
    }
    paths[kept] = merged;
  }
  return Object.assign({}, document, { paths });
}

function renameParameters(operation: TOperation, from: string[], to: string[]): TOperation {
  if (!operation.parameters) return operation;
  const parameters = operation.parameters.map((parameter) => {
    const at = parameter.in === 'path' ? from.indexOf(parameter.name) : -1;
    if (at === -1 || from[at] === to[at]) return parameter;
    const description = parameter.description ?? TAKES[parameter.name] ?? `Its \`${parameter.name}\``;
    return { ...parameter, name: to[at]!, description };
  });
  return { ...operation, parameters };
}
