// The comparisons of "Ask Several Agents", kept in workspaceState: a reload brings the panel back
// (its serializer, askSeveral.ts) and the record says which sessions it compares. A record goes
// when the user closes its panel; the sessions and worktrees stay (their own records, worktreeSessions.ts).
import type * as vscode from 'vscode';
import { type ComparisonRecord, isComparisonRecord } from '../../shared/comparisonModel';
import { WORKSPACE_STATE } from '../storageKeys';

const KEY = WORKSPACE_STATE.comparisons;

export class Comparisons {
  constructor(private readonly state: vscode.Memento) {}

  all(): ComparisonRecord[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter(isComparisonRecord) : [];
  }

  get(id: string): ComparisonRecord | undefined {
    return this.all().find((r) => r.id === id);
  }

  async put(record: ComparisonRecord): Promise<void> {
    await this.state.update(KEY, [...this.all().filter((r) => r.id !== record.id), record]);
  }

  async remove(id: string): Promise<void> {
    const rest = this.all().filter((r) => r.id !== id);
    await this.state.update(KEY, rest.length ? rest : undefined);
  }
}
