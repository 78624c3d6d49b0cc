// Registry icons for the browse list. The registry asks for 16×16 monochrome SVGs drawn in
// `currentColor`; an icon shown as an image has no text colour to inherit, so each is saved twice
// with the colour filled in for light and dark themes. Downloaded over https only (the same rules
// as every registry download), size-capped, and only when the file is an SVG. An image cannot run
// script, so nothing in it executes.
import { createHash } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fetchText, type UrlPolicy } from '../../registry/download';

const MAX_ICON_BYTES = 64 * 1024;
const ICON_TIMEOUT_MS = 5000;
const LIGHT = '#424242';
const DARK = '#c5c5c5';

export type ThemedIcon = { light: vscode.Uri; dark: vscode.Uri };

export class RegistryIcons {
  private readonly memo = new Map<string, Promise<ThemedIcon | undefined>>();

  constructor(
    private readonly dir: string,
    private readonly policy: () => UrlPolicy,
  ) {}

  /** The themed icon files for `url`, fetched once per URL and kept on disk; undefined when it cannot be had. */
  get(url: string): Promise<ThemedIcon | undefined> {
    let p = this.memo.get(url);
    if (!p) {
      p = this.load(url).catch(() => undefined);
      this.memo.set(url, p);
    }
    return p;
  }

  private async load(url: string): Promise<ThemedIcon | undefined> {
    const base = join(this.dir, createHash('sha256').update(url).digest('hex').slice(0, 16));
    const icon = { light: vscode.Uri.file(`${base}.light.svg`), dark: vscode.Uri.file(`${base}.dark.svg`) };
    if (await exists(icon.dark.fsPath)) return icon;
    const svg = await fetchText(url, { policy: this.policy(), timeoutMs: ICON_TIMEOUT_MS, maxBytes: MAX_ICON_BYTES });
    if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(svg)) return undefined;
    await mkdir(this.dir, { recursive: true });
    await writeFile(icon.light.fsPath, svg.replace(/currentColor/gi, LIGHT));
    await writeFile(icon.dark.fsPath, svg.replace(/currentColor/gi, DARK));
    return icon;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
