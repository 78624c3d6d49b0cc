import type {
  ContentBlock,
  SessionConfigOption,
  SessionMode,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk';
import type {
  ElicitationRequestView,
  PermissionDecisionView,
  PermissionRequestView,
  TerminalView,
  TurnUsageView,
} from '../shared/sessionModel';

/**
 * Everything that can change a session: the agent's session/update notifications plus the
 * client's own lifecycle events. Times come in the action so the reducer stays pure.
 */
export type SessionAction =
  | { type: 'update'; update: SessionUpdate; at: number }
  | {
      type: 'started';
      at: number;
      modes?: SessionMode[];
      currentModeId?: string;
      configOptions?: SessionConfigOption[];
    }
  | { type: 'promptStarted'; at: number; prompt: ContentBlock[] }
  | { type: 'promptEnded'; at: number; stopReason: StopReason; usage?: TurnUsageView }
  | { type: 'promptFailed'; at: number; error: string }
  | { type: 'disconnected'; at: number; error: string }
  | { type: 'modeChanged'; at: number; currentModeId: string }
  | { type: 'configOptionsChanged'; at: number; configOptions: SessionConfigOption[] }
  /** session/list gave the session this title (opencode and Kilo name a session there, not in session_info_update). */
  | { type: 'titleListed'; at: number; title: string }
  /** Edit and resend rewound the conversation to before prompt `fromTurn`: it and the later turns fold as rewound. */
  | { type: 'rewound'; at: number; fromTurn: number }
  /** Redo of an edit: those rewound turns show again (the agent's context stays as it is). */
  | { type: 'unrewound'; at: number; turns: number[] }
  /** A terminal appeared or its header changed (command, exit, release). Output goes by terminalOutput. */
  | { type: 'terminal'; at: number; terminal: Omit<TerminalView, 'output' | 'truncated'> & { truncated?: boolean } }
  | { type: 'terminalOutput'; at: number; terminalId: string; data: string }
  /** A session/request_permission waits for the user (queued in arrival order). */
  | { type: 'permissionRequested'; at: number; request: PermissionRequestView }
  /** It was answered (by the user, a rule, a remembered decision) or cancelled. */
  | { type: 'permissionResolved'; at: number; requestId: string; decision: PermissionDecisionView }
  /** A call ran with no permission request where Tandem would have asked: the agent's own settings allowed it. */
  | { type: 'agentAllowed'; at: number; toolCallId: string; source?: string }
  /** An elicitation/create form waits for the user, or a URL they opened waits for elicitation/complete. */
  | { type: 'elicitationRequested'; at: number; request: ElicitationRequestView }
  /** It was answered, cancelled, completed or dismissed. */
  | { type: 'elicitationResolved'; at: number; requestId: string };
