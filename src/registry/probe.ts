// "Does the new version work?": start it, send ACP `initialize`, and stop it. An update switches
// the settings to the new version only after this succeeded, so a broken release never replaces
// a working one.
import { errorDetail } from '../acp/errors';
import { AGENT_METHODS } from '../acp/methods';
import type { AgentConfig } from '../client/agents/agentConfig';
import { openTransport } from '../client/connection/transport';
import { nullLogger, type Logger } from '../common/logger';

export type ProbeResult = { ok: true; agentVersion?: string } | { ok: false; message: string };

export async function probeInitialize(
  agent: AgentConfig,
  o: { cwd: string; timeoutMs?: number; logger?: Logger; clientVersion?: string },
): Promise<ProbeResult> {
  const logger = o.logger ?? nullLogger;
  const { proc, conn } = openTransport({ agent, cwd: o.cwd, logger });
  let timer: NodeJS.Timeout | undefined;
  try {
    conn.listen();
    const exited = new Promise<ProbeResult>((resolve) =>
      proc.onDidExit((e) => resolve({ ok: false, message: e.message })),
    );
    const timeout = new Promise<ProbeResult>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            message: `${agent.name} did not answer initialize within ${(o.timeoutMs ?? 30_000) / 1000} s`,
          }),
        o.timeoutMs ?? 30_000,
      );
    });
    const init = conn
      .sendRequest(AGENT_METHODS.initialize, {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: 'tandem', title: 'Tandem', version: o.clientVersion ?? '0' },
      })
      .then(
        (r): ProbeResult =>
          r.protocolVersion === 1
            ? { ok: true, agentVersion: r.agentInfo?.version }
            : { ok: false, message: `${agent.name} speaks ACP version ${r.protocolVersion}, Tandem speaks 1` },
        (err): ProbeResult => ({ ok: false, message: errorDetail(err) }),
      )
      // A closed connection says less than the exit does (its stderr lines): wait a moment for it.
      .then((r) =>
        r.ok ? r : Promise.race([exited, new Promise<ProbeResult>((res) => setTimeout(() => res(r), 500))]),
      );
    return await Promise.race([init, exited, timeout]);
  } finally {
    clearTimeout(timer);
    conn.dispose();
    await proc.kill();
  }
}
