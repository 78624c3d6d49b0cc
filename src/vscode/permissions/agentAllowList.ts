// The VS Code side of "the agent's own settings let this call through": finds the settings file
// that holds the agent's allow rules (claude-code-acp / Claude Code: .claude/settings.local.json,
// then .claude/settings.json, in the session's folder) and tells the user once per session, with
// an action that opens the file.
import * as vscode from 'vscode';
import {
  CLAUDE_SETTINGS_FILES,
  hasAllowRules,
  tandemWouldAllow,
  type AgentAllowListPort,
} from '../../client/permissions/agentAllowed';
import type { AgentAllowedWatch } from '../../client/permissions/feature';
import type { Logger } from '../../common/logger';

/** What the permissions feature needs to spot and report such calls. */
export function agentAllowedWatch(
  logger: Logger,
  deps: () => Parameters<typeof tandemWouldAllow>[2],
): AgentAllowedWatch {
  return {
    wouldAllow: (facts, agent, roots) => tandemWouldAllow(facts, agent, { ...deps(), ...(roots ? { roots } : {}) }),
    port: agentAllowListPort(logger),
  };
}

function agentAllowListPort(logger: Logger): AgentAllowListPort {
  return {
    async allowListFile(cwd) {
      for (const rel of CLAUDE_SETTINGS_FILES) {
        const uri = vscode.Uri.joinPath(vscode.Uri.file(cwd), rel);
        let bytes: Uint8Array;
        try {
          bytes = await vscode.workspace.fs.readFile(uri);
        } catch {
          continue;
        }
        if (hasAllowRules(new TextDecoder().decode(bytes))) return rel;
      }
      return undefined;
    },
    notify(agentName, _sessionId, call, file) {
      const what = call.kind === 'execute' ? 'ran a command' : 'changed a file';
      const where = file ? `: its own settings allow it (${file})` : ': its own settings allow it';
      logger.info(`${agentName} ${what} without asking (${call.title})${where}`);
      const open = file ? `Open ${file}` : undefined;
      void vscode.window
        .showInformationMessage(
          `Tandem: ${agentName} ${what} without asking you${where}. Tandem's permission rules do not see or remove those.`,
          ...(open ? [open] : []),
        )
        .then((pick) => {
          const folder = vscode.workspace.workspaceFolders?.[0];
          if (pick && pick === open && file && folder)
            void vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, file));
        });
    },
  };
}
