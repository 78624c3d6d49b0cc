import type { ContentBlock, SessionConfigOption, SessionMode, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';

/**
 * Everything that can change a session: the agent's session/update notifications plus the
 * client's own lifecycle events. Times come in the action so the reducer stays pure.
 */
export type SessionAction =
  | { type: 'update'; update: SessionUpdate; at: number }
  | { type: 'started'; at: number; modes?: SessionMode[]; currentModeId?: string; configOptions?: SessionConfigOption[] }
  | { type: 'promptStarted'; at: number; prompt: ContentBlock[] }
  | { type: 'promptEnded'; at: number; stopReason: StopReason }
  | { type: 'promptFailed'; at: number; error: string }
  | { type: 'disconnected'; at: number; error: string }
  | { type: 'modeChanged'; at: number; currentModeId: string }
  | { type: 'configOptionsChanged'; at: number; configOptions: SessionConfigOption[] };
