import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One function of the sources, with how many lines it spans (first to last line, both counted). */
export interface FunctionSize {
  /** `path:line name`, the path relative to the root given to {@link functionSizes}. */
  where: string;
  lines: number;
}

/** Every `.ts` file under `dir` but declaration files and generated code (`src/gen`). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes(join("src", "gen")));
}

/** The name a reader finds a function by: its own, the variable or property it is assigned to, else `(anonymous)`. */
function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined)
    return parent.name.getText(file);
  return "(anonymous)";
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** The size of every function in `text`, nested ones included (a nested function counts in its parent's size too). */
export function functionSizesIn(path: string, text: string): FunctionSize[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (FUNCTION_KINDS.has(node.kind)) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ where: `${path}:${first + 1} ${nameOf(node, file)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sizes;
}

/** The size of every function in the sources under each of `dirs` (relative to `root`). */
export function functionSizes(root: string, dirs: readonly string[]): FunctionSize[] {
  return dirs.flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((file) => functionSizesIn(relative(root, file), readFileSync(file, "utf8"))),
  );
}
