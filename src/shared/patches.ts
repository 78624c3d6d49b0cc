// Patches on their way: merged per batch before they cross to the webview (coalescePatches), and
// applied to the webview's mirror of the session (applyPatches).
import { appendOutput, type Patch, type SessionSnapshot } from './sessionModel';

/**
 * Applies patches to a mutable snapshot (the webview's mirror). Returns what changed so a
 * view can re-render only those parts. Unknown ops are ignored, never thrown on.
 */
export function applyPatches(s: SessionSnapshot, patches: readonly Patch[]): Changed {
  const changed: Changed = {
    meta: false,
    turns: new Set(),
    tools: new Set(),
    notices: false,
    terminals: new Set(),
    permissions: false,
    elicitations: false,
  };
  for (const p of patches) {
    switch (p.op) {
      case 'meta':
        s.meta = { ...s.meta, ...p.meta };
        changed.meta = true;
        break;
      case 'turn': {
        const prev = s.turns[p.turn.index];
        s.turns[p.turn.index] = { ...p.turn, items: prev?.items ?? [] };
        changed.turns.add(p.turn.index);
        break;
      }
      case 'fullTurn': {
        const { outline: _, ...turn } = p.turn;
        s.turns[turn.index] = { ...turn, items: turn.items.slice() };
        for (const c of p.calls) {
          s.toolCalls[c.toolCallId] = c;
          changed.tools.add(c.toolCallId);
        }
        changed.turns.add(turn.index);
        break;
      }
      case 'item': {
        const turn = s.turns[p.turn];
        if (!turn) break;
        turn.items[p.index] = p.item;
        changed.turns.add(p.turn);
        break;
      }
      case 'append': {
        const item = s.turns[p.turn]?.items[p.index];
        if (!item || !('blocks' in item)) break;
        const blocks = item.blocks.slice();
        const b = blocks[p.block];
        if (b && b.type === 'text') blocks[p.block] = { ...b, text: b.text + p.text };
        else blocks[p.block] = { type: 'text', text: p.text };
        s.turns[p.turn].items[p.index] = { ...item, blocks };
        changed.turns.add(p.turn);
        break;
      }
      case 'tool':
        s.toolCalls[p.call.toolCallId] = p.call;
        changed.tools.add(p.call.toolCallId);
        break;
      case 'notice':
        s.notices.push(p.notice);
        changed.notices = true;
        break;
      case 'terminal': {
        const prev = s.terminals[p.terminal.terminalId];
        s.terminals[p.terminal.terminalId] = {
          ...prev,
          ...p.terminal,
          output: p.terminal.output ?? prev?.output ?? '',
        };
        changed.terminals.add(p.terminal.terminalId);
        break;
      }
      case 'terminalOutput': {
        const t = s.terminals[p.terminalId];
        if (!t) break;
        s.terminals[p.terminalId] = appendOutput(t, p.data);
        changed.terminals.add(p.terminalId);
        break;
      }
      case 'permissions':
        s.permissions = p.permissions;
        changed.permissions = true;
        break;
      case 'elicitations':
        s.elicitations = p.elicitations;
        changed.elicitations = true;
        break;
    }
  }
  return changed;
}

export interface Changed {
  meta: boolean;
  turns: Set<number>;
  tools: Set<string>;
  notices: boolean;
  terminals: Set<string>;
  permissions: boolean;
  elicitations: boolean;
}

/**
 * Merges a batch before it crosses to the webview: consecutive appends to one block become
 * one, and only the last upsert of a tool call in the batch is kept (order of first sight).
 */
export function coalescePatches(patches: readonly Patch[]): Patch[] {
  const out: Patch[] = [];
  const toolAt = new Map<string, number>();
  for (const p of patches) {
    const prev = out[out.length - 1];
    if (
      p.op === 'append' &&
      prev?.op === 'append' &&
      prev.turn === p.turn &&
      prev.index === p.index &&
      prev.block === p.block
    ) {
      out[out.length - 1] = { ...prev, text: prev.text + p.text };
    } else if (p.op === 'tool') {
      const at = toolAt.get(p.call.toolCallId);
      // Safe to replace in place: a tool upsert never depends on patches between the two.
      if (at !== undefined) out[at] = p;
      else {
        toolAt.set(p.call.toolCallId, out.length);
        out.push(p);
      }
    } else if (p.op === 'terminalOutput' && prev?.op === 'terminalOutput' && prev.terminalId === p.terminalId) {
      out[out.length - 1] = { ...prev, data: prev.data + p.data };
    } else if (p.op === 'meta' && prev?.op === 'meta') {
      out[out.length - 1] = { op: 'meta', meta: { ...prev.meta, ...p.meta } };
    } else out.push(p);
  }
  return out;
}
