// The typed ACP v1 method table: one RequestType / NotificationType per method, named after the
// SDK's AGENT_METHODS (client → agent), CLIENT_METHODS (agent → client) and PROTOCOL_METHODS.
// ACP types come from @agentclientprotocol/sdk as types only; nothing of the SDK at run time.
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type * as acp from '@agentclientprotocol/sdk';

const req = <P, R>(method: string) => new RequestType<P, R, void>(method);
const note = <P>(method: string) => new NotificationType<P>(method);

/** Methods the agent implements: the client sends these. */
export const AGENT_METHODS = {
  initialize: req<acp.InitializeRequest, acp.InitializeResponse>('initialize'),
  authenticate: req<acp.AuthenticateRequest, acp.AuthenticateResponse>('authenticate'),
  logout: req<acp.LogoutRequest, acp.LogoutResponse>('logout'),
  session_new: req<acp.NewSessionRequest, acp.NewSessionResponse>('session/new'),
  session_load: req<acp.LoadSessionRequest, acp.LoadSessionResponse>('session/load'),
  session_resume: req<acp.ResumeSessionRequest, acp.ResumeSessionResponse>('session/resume'),
  session_list: req<acp.ListSessionsRequest, acp.ListSessionsResponse>('session/list'),
  session_close: req<acp.CloseSessionRequest, acp.CloseSessionResponse>('session/close'),
  session_delete: req<acp.DeleteSessionRequest, acp.DeleteSessionResponse>('session/delete'),
  session_set_mode: req<acp.SetSessionModeRequest, acp.SetSessionModeResponse>('session/set_mode'),
  session_set_config_option: req<acp.SetSessionConfigOptionRequest, acp.SetSessionConfigOptionResponse>(
    'session/set_config_option',
  ),
  session_prompt: req<acp.PromptRequest, acp.PromptResponse>('session/prompt'),
  session_cancel: note<acp.CancelNotification>('session/cancel'),
} as const;

/** Methods the client implements: the agent sends these. */
export const CLIENT_METHODS = {
  session_update: note<acp.SessionNotification>('session/update'),
  session_request_permission: req<acp.RequestPermissionRequest, acp.RequestPermissionResponse>(
    'session/request_permission',
  ),
  fs_read_text_file: req<acp.ReadTextFileRequest, acp.ReadTextFileResponse>('fs/read_text_file'),
  fs_write_text_file: req<acp.WriteTextFileRequest, acp.WriteTextFileResponse>('fs/write_text_file'),
  terminal_create: req<acp.CreateTerminalRequest, acp.CreateTerminalResponse>('terminal/create'),
  terminal_output: req<acp.TerminalOutputRequest, acp.TerminalOutputResponse>('terminal/output'),
  terminal_wait_for_exit: req<acp.WaitForTerminalExitRequest, acp.WaitForTerminalExitResponse>(
    'terminal/wait_for_exit',
  ),
  terminal_kill: req<acp.KillTerminalRequest, acp.KillTerminalResponse>('terminal/kill'),
  terminal_release: req<acp.ReleaseTerminalRequest, acp.ReleaseTerminalResponse>('terminal/release'),
  elicitation_create: req<acp.CreateElicitationRequest, acp.CreateElicitationResponse>('elicitation/create'),
  elicitation_complete: note<acp.CompleteElicitationNotification>('elicitation/complete'),
} as const;

/** Protocol-level methods, in both directions. */
export const PROTOCOL_METHODS = {
  cancel_request: note<acp.CancelRequestNotification>('$/cancel_request'),
} as const;

export type AgentMethodName = (typeof AGENT_METHODS)[keyof typeof AGENT_METHODS]['method'];
export type ClientMethodName = (typeof CLIENT_METHODS)[keyof typeof CLIENT_METHODS]['method'];

/** Every `sessionUpdate` kind of protocol v1 (mirrors the schema; checked in the unit tests). */
export type SessionUpdateKind = acp.SessionUpdate['sessionUpdate'];
