// What every positional tool of the Code group shares: the argument schema (path, 1-based line,
// column or symbol), finding the document and position a call names (a file outside the
// workspace only with the user's yes: codeAccess.ts), and the plain answer when no language
// support is installed for a file. Pure: no vscode.
import { gateOf } from './codeAccess';
import { MAX_LIMIT, positionOf, type PortDocument, type Pos } from './codeShape';
import type { CodePort } from './codePort';
import { textResult, type JsonSchema, type ToolCallContext, type ToolResult } from '../types';
import { displayPath, foldersOf, pathSchema, resolveInputPath } from '../workspace/workspacePaths';

export const POSITION_PROPS: Record<string, JsonSchema> = {
  path: pathSchema('File path, relative to the workspace folder or absolute.'),
  line: { type: 'integer', minimum: 1, description: '1-based line number.' },
  column: {
    type: 'integer',
    minimum: 1,
    description: '1-based column of the symbol on that line. Pass this or "symbol".',
  },
  symbol: {
    type: 'string',
    minLength: 1,
    description: 'The name as written on that line, instead of a column (its first whole-word occurrence).',
  },
  occurrence: { type: 'integer', minimum: 1, description: 'Which occurrence of "symbol" on the line (default 1).' },
};
export const limitProp = (dflt: number): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: MAX_LIMIT,
  description: `Most results to return (default ${dflt}).`,
});
export const positionSchema = (extra: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties: { ...POSITION_PROPS, ...extra },
  required: ['path', 'line', ...required],
  additionalProperties: false,
});

export interface OpenedDocument {
  doc: PortDocument;
  /** The path as results show it. */
  shown: string;
  /** Inside a workspace folder (real path); text of a file outside never goes into a message. */
  inside: boolean;
}

export interface Target extends OpenedDocument {
  pos: Pos;
}

/** The document and position a positional call names; throws a correctable message. */
export async function targetOf(port: CodePort, a: Record<string, unknown>, ctx: ToolCallContext): Promise<Target> {
  const d = await documentOf(port, a.path as string, ctx);
  const where = a as { line: number; column?: number; symbol?: string; occurrence?: number };
  return { ...d, pos: positionOf(d.doc, d.shown, where, d.inside) };
}

/** The document a call names; a file outside the workspace asks the user first (throws when refused). */
export async function documentOf(port: CodePort, p: string, ctx: ToolCallContext): Promise<OpenedDocument> {
  const folders = foldersOf(port, ctx);
  const ref = resolveInputPath(p, folders);
  const inside = await gateOf(port).allow(ref, p, ctx, 'read');
  let doc: PortDocument;
  try {
    doc = await port.open(ref);
  } catch (err) {
    throw new Error(`Cannot open ${p}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return { doc, shown: displayPath(doc.path ?? doc.uri, folders), inside };
}

/**
 * When a provider answered nothing: a result saying no language support is installed for the
 * file's language, or undefined when some extension does support it (the answer really is empty).
 */
export function noSupport(
  port: CodePort,
  tool: string,
  t: { doc: PortDocument; shown: string },
): ToolResult | undefined {
  const lang = t.doc.languageId;
  if (lang !== 'plaintext' && port.languageSupport(lang).length) return undefined;
  return textResult(
    `No language support is installed in VS Code for ${t.shown} (language "${lang}"): no extension provides code intelligence for it, so ${tool} has no answer. Read the file instead, or ask the user to install a language extension for ${lang}.`,
    true,
  );
}

export const at = (t: Target) => `${t.shown}:${t.pos.line + 1}:${t.pos.character + 1}`;
