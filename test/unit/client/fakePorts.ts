// Fake ports for the fs handlers: the file system is a real temp dir (node:fs), the editor's
// buffers and WorkspaceEdits are simulated in memory.
import { mkdirSync, promises as fsp, realpathSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { PermissionPort } from '../../../src/client/permissions/permissionPort';
import type { DocumentsPort, EditPort, FsPort, OpenDocument, WorkspacePort } from '../../../src/client/ports';

export const nodeFs: FsPort = {
  async stat(p) {
    try {
      const s = await fsp.stat(p);
      return { type: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
    } catch {
      return undefined;
    }
  },
  readFile: (p) => fsp.readFile(p),
  realpath: (p) => fsp.realpath(p),
};

export class FakeDocs implements DocumentsPort {
  readonly docs = new Map<string, { text: string; isDirty: boolean; version: number }>();
  get(path: string): OpenDocument | undefined {
    return this.docs.get(path);
  }
  open(path: string, text: string, isDirty = false): void {
    this.docs.set(path, { text, isDirty, version: 1 });
  }
  type(path: string, text: string): void {
    const d = this.docs.get(path)!;
    this.docs.set(path, { text, isDirty: true, version: d.version + 1 });
  }
}

export class FakeEdits implements EditPort {
  readonly calls: string[] = [];
  constructor(private readonly docs: FakeDocs) {}
  async replaceText(path: string, text: string): Promise<void> {
    this.calls.push(`replace ${path}`);
    writeFileSync(path, text);
    const d = this.docs.docs.get(path);
    if (d) this.docs.docs.set(path, { text, isDirty: false, version: d.version + 1 });
  }
  async createFile(path: string, contents: Uint8Array): Promise<void> {
    this.calls.push(`create ${path}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, contents, { flag: 'wx' });
  }
  async deleteFile(path: string): Promise<void> {
    this.calls.push(`delete ${path}`);
    await fsp.rm(path);
  }
  async restoreBytes(path: string, bytes: Uint8Array): Promise<void> {
    this.calls.push(`restore ${path}`);
    writeFileSync(path, bytes);
  }
}

export class FakePermission implements PermissionPort {
  readonly asked: { sessionId: string; toolCall: ToolCallUpdate; options: PermissionOption[] }[] = [];
  constructor(public answer: string | 'cancelled' = 'reject_once') {}
  async request(
    sessionId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
  ): Promise<RequestPermissionOutcome> {
    this.asked.push({ sessionId, toolCall, options });
    return this.answer === 'cancelled' ? { outcome: 'cancelled' } : { outcome: 'selected', optionId: this.answer };
  }
}

export function fakeWorkspace(...folders: string[]): WorkspacePort {
  return { folders: () => folders.map((f) => realpathSync(f)) };
}
