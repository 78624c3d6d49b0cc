// The bash grammar VS Code itself uses to split command lines (tree-sitter-bash, WASM, from
// @vscode/tree-sitter-wasm). Loaded on the first command a permission decision looks at, never
// at activation; after that a parse is synchronous (~0.07 ms for a typical line). Until it has
// loaded, or if it cannot load, `parseBash` answers undefined and callers fail closed: a line
// they cannot parse is matched only by its exact text, or asked about.
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { Node as SyntaxNode, Parser as TSParser } from '@vscode/tree-sitter-wasm';

export type { SyntaxNode };

let parser: TSParser | undefined;
let loading: Promise<boolean> | undefined;
let loadError: string | undefined;

/** Where the WASM files are: beside the bundle (dist/, the VSIX), else in node_modules (tests). */
function wasmPath(name: string): string {
  const beside = nodePath.join(__dirname, name);
  if (fs.existsSync(beside)) return beside;
  return require.resolve(`@vscode/tree-sitter-wasm/wasm/${name}`);
}

/** Loads the grammar once; resolves true when `parseBash` can parse. Never rejects. */
export function loadBashParser(): Promise<boolean> {
  loading ??= (async () => {
    try {
      // Required here, not imported at the top: the module sets up an Emscripten runtime, and the
      // extension bundle leaves it out (esbuild.mjs) so that activation never parses it.
      const beside = nodePath.join(__dirname, 'tree-sitter.js');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ts = require(fs.existsSync(beside) ? beside : '@vscode/tree-sitter-wasm') as typeof TreeSitter;
      await ts.Parser.init({ locateFile: (file: string) => wasmPath(file) });
      const bash = await ts.Language.load(await fs.promises.readFile(wasmPath('tree-sitter-bash.wasm')));
      const p = new ts.Parser();
      p.setLanguage(bash);
      parser = p;
      return true;
    } catch (err) {
      loadError = err instanceof Error ? err.message : String(err);
      return false;
    }
  })();
  return loading;
}

/** Why the grammar is not there (for the log), once a load failed. */
export function bashParserError(): string | undefined {
  return loadError;
}

/** True once the grammar has loaded. */
export function bashParserReady(): boolean {
  return parser !== undefined;
}

/**
 * The syntax tree of a line, handed to `use` and freed after (tree-sitter trees live in WASM
 * memory). Undefined when the grammar has not loaded.
 */
export function parseBash<T>(line: string, use: (root: SyntaxNode) => T): T | undefined {
  if (!parser) return undefined;
  const tree = parser.parse(line);
  if (!tree) return undefined;
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
