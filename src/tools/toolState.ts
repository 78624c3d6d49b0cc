// One session's view of the client tool registry: which groups are collapsed behind a container
// tool, which skills are active, which tools hidden, which groups injected or removed by
// augmentation, and the tool list the agent sees as a result. Pure: no vscode, no transport.
import type { IDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import {
  containerDescription,
  containerSchema,
  EMPTY_OBJECT_SCHEMA,
  expansionText,
  skillActivationText,
} from './containerTool';
import { compileGroup, namesOf, ToolRegistrationError, type CompiledGroup, type ToolRegistry } from './registry';
import {
  DEFAULT_TOOLS_CONFIG,
  type Augmentation,
  type ContextItem,
  type ListedTool,
  type Tool,
  type ToolsConfig,
} from './types';

/**
 * One session's client tools: the registry plus this session's expansions, active skills,
 * hidden tools and injected/removed groups. Persists across turns; reset() starts over from the
 * configured groups (a new session gets a new ToolState).
 */
export class ToolState implements IDisposable {
  private expansion = new Map<string, boolean>();
  private hidden = new Set<string>();
  private removed = new Set<string>();
  private injected = new Map<string, CompiledGroup>();
  private activeSkills = new Set<string>();
  private contextItems: ContextItem[] = [];
  private lastSignature = '';
  private readonly changed = new Emitter<void>();
  /** The agent's tool list changed (fire → notifications/tools/list_changed). */
  readonly onDidChangeList = this.changed.event;
  private readonly sub: IDisposable;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly config: () => ToolsConfig = () => DEFAULT_TOOLS_CONFIG,
  ) {
    this.sub = registry.onDidChange(() => this.maybeFire());
    this.lastSignature = this.signature();
  }

  get context(): readonly ContextItem[] {
    return this.contextItems;
  }

  /** Groups present in this session (registered minus removed, plus injected). */
  groups(): CompiledGroup[] {
    const out = this.registry.all().filter((c) => !this.removed.has(c.group.name) && !this.injected.has(c.group.name));
    return [...out, ...this.injected.values()];
  }

  group(name: string): CompiledGroup | undefined {
    if (this.removed.has(name)) return undefined;
    return this.injected.get(name) ?? this.registry.get(name);
  }

  isCollapsed(name: string): boolean {
    const cfg = this.config();
    if (!cfg.collapse) return false;
    const o = this.expansion.get(name);
    if (o !== undefined) return !o;
    const c = this.group(name);
    if (!c) return false;
    return c.group.startCollapsed !== false && !cfg.expandedGroups.includes(name);
  }

  private skillKey(group: string, skillTool: string): string {
    return `${group}\u0000${skillTool}`;
  }

  /** Tools of a group the agent sees now (its expansion or its active skills, minus hidden). */
  visibleTools(c: CompiledGroup): Tool[] {
    const collapsed = this.isCollapsed(c.group.name);
    const bySkill = new Set<string>();
    if (collapsed) {
      for (const [n, s] of c.skillNames)
        if (this.activeSkills.has(this.skillKey(c.group.name, n))) for (const r of s.references) bySkill.add(r);
    }
    return c.group.tools.filter((t) => !this.hidden.has(t.name) && (!collapsed || bySkill.has(t.name)));
  }

  /** The agent's tool list, in group order: container (if collapsed), skills, tools. */
  list(): ListedTool[] {
    const out: ListedTool[] = [];
    for (const c of this.groups()) {
      const g = c.group;
      if (this.isCollapsed(g.name)) {
        out.push({
          kind: 'container',
          name: g.name,
          description: containerDescription(g),
          inputSchema: containerSchema(g),
          group: g.name,
        });
      }
      for (const [name, skill] of c.skillNames) {
        out.push({
          kind: 'skill',
          name,
          description: `Skill: ${skill.description} Activating it makes these tools available: ${skill.references.join(', ')}.`,
          inputSchema: EMPTY_OBJECT_SCHEMA,
          group: g.name,
          skill,
        });
      }
      const prompts = this.standingPrompts(c);
      for (const t of this.visibleTools(c)) {
        const extra = prompts.get(t.name);
        out.push({
          kind: 'tool',
          name: t.name,
          description: extra ? `${t.description}\n\n${extra}` : t.description,
          inputSchema: t.parametersSchema,
          group: g.name,
          tool: t,
        });
      }
    }
    return out;
  }

  /**
   * systemPrompt mapping (see README "Client tools"): while a group is expanded (or a skill
   * active), its systemPrompt rides on the description of each of its visible tools — tool
   * definitions are re-sent to the model every turn, and they go away when the group collapses.
   */
  private standingPrompts(c: CompiledGroup): Map<string, string> {
    const out = new Map<string, string>();
    const add = (tool: string, text: string) => out.set(tool, out.has(tool) ? `${out.get(tool)}\n${text}` : text);
    const g = c.group;
    if (!this.isCollapsed(g.name) && g.systemPrompt?.trim())
      for (const t of g.tools) add(t.name, `${g.name} group instructions: ${g.systemPrompt.trim()}`);
    for (const [n, s] of c.skillNames) {
      if (s.systemPrompt?.trim() && this.activeSkills.has(this.skillKey(g.name, n)))
        for (const r of s.references) add(r, `${s.name} skill instructions: ${s.systemPrompt.trim()}`);
    }
    return out;
  }

  /** What a name in the agent's call refers to now, if it is listed. */
  resolve(name: string): ListedTool | undefined {
    const listed = this.list().find((l) => l.name === name);
    if (listed) return listed;
    // A group's container called after it expanded: an agent with a stale tool list.
    const c = this.group(name);
    return c
      ? {
          kind: 'container',
          name,
          description: containerDescription(c.group),
          inputSchema: containerSchema(c.group),
          group: name,
        }
      : undefined;
  }

  /** Expands a group; returns the generated expansion text. */
  expand(name: string): string | undefined {
    const c = this.group(name);
    if (!c) return undefined;
    this.expansion.set(name, true);
    this.maybeFire();
    return expansionText(
      c.group,
      this.visibleTools(c).map((t) => t.name),
    );
  }

  collapse(name: string): void {
    if (!this.group(name)) return;
    this.expansion.set(name, false);
    this.maybeFire();
  }

  activateSkill(group: string, skillTool: string): string | undefined {
    const c = this.group(group);
    const skill = c?.skillNames.get(skillTool);
    if (!c || !skill) return undefined;
    this.activeSkills.add(this.skillKey(group, skillTool));
    this.maybeFire();
    const visible = skill.references.filter((r) => !this.hidden.has(r));
    return skillActivationText(skill, visible);
  }

  /** Applies a handler's augmentation; returns problems (as text for the result) and context lines. */
  augment(a: Augmentation): { problems: string[]; context: ContextItem[] } {
    const problems: string[] = [];
    for (const g of a.injectGroups ?? []) {
      try {
        const c = compileGroup(g);
        const others = this.groups().filter((o) => o.group.name !== g.name || !this.injected.has(g.name));
        this.checkInjectClash(c, others);
        this.removed.delete(g.name);
        this.injected.set(g.name, c);
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    for (const n of a.removeGroups ?? []) {
      if (this.injected.delete(n)) continue;
      if (this.registry.get(n)) this.removed.add(n);
    }
    for (const n of a.expandGroups ?? []) this.expansion.set(n, true);
    for (const n of a.collapseGroups ?? []) this.expansion.set(n, false);
    for (const n of a.hideTools ?? []) this.hidden.add(n);
    for (const n of a.showTools ?? []) this.hidden.delete(n);
    const context = (a.addContext ?? []).filter((c) => c && typeof c.key === 'string' && typeof c.value === 'string');
    this.contextItems.push(...context);
    this.maybeFire();
    return { problems, context };
  }

  private checkInjectClash(c: CompiledGroup, others: CompiledGroup[]): void {
    const taken = new Map<string, string>();
    for (const o of others) if (o.group.name !== c.group.name) for (const n of namesOf(o)) taken.set(n, o.group.name);
    for (const n of namesOf(c)) {
      const owner = taken.get(n);
      if (owner)
        throw new ToolRegistrationError(
          `Invalid tool group "${c.group.name}": the name "${n}" is already used by group "${owner}"`,
        );
    }
  }

  /** Back to the configured groups: no expansions, skills, hidden, injected or removed groups. */
  reset(): void {
    this.expansion.clear();
    this.hidden.clear();
    this.removed.clear();
    this.injected.clear();
    this.activeSkills.clear();
    this.contextItems = [];
    this.maybeFire();
  }

  /** Settings changed (collapse, expanded groups): re-check the list. */
  refresh(): void {
    this.maybeFire();
  }

  private signature(): string {
    return JSON.stringify(this.list().map((l) => [l.name, l.description]));
  }

  private maybeFire(): void {
    const s = this.signature();
    if (s === this.lastSignature) return;
    this.lastSignature = s;
    this.changed.fire();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
