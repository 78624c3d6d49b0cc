// What the registry's notifications say when something fails: what failed, for which agent (its
// name, never the registry id), why in words (Node's and npm's codes go to the log only), what is
// left as it was, and which buttons help (Retry, Open Settings, Show Log). No vscode: the texts
// are unit-tested; src/vscode/registry shows them.
import { ArchiveRefusedError } from './archiveRefusal';
import { RegistryLoadError } from './catalog';
import { ChecksumError } from './installer';
import { NetworkError } from './networkErrors';
import { NpmInstallError } from './npm';

export type MessageButton = 'Retry' | 'Open Settings' | 'Show Log';

export interface RegistryMessage {
  text: string;
  buttons: MessageButton[];
  /** The same for the log, with the codes the text leaves out. */
  log: string;
  /** The setting Open Settings shows. */
  setting?: string;
}

export const REGISTRY_URL_SETTING = 'tandem.registry.url';

/** Said after a certificate the machine does not trust (a company CA, a proxy that inspects TLS). */
export const CERTIFICATE_HELP =
  "If your network uses its own certificate authority, add it to this computer's certificate store: " +
  "with VS Code's http.systemCertificates setting on (the default), Tandem trusts it.";

/** The index could not be fetched and no copy is cached. */
export function loadFailure(err: unknown): RegistryMessage {
  if (err instanceof RegistryLoadError) {
    const text =
      `Tandem could not load the ACP Registry from ${hostOf(err.url)}: ${sentence(err.reason)} ` +
      `No copy of the list is saved yet. The address is the setting ${REGISTRY_URL_SETTING}.` +
      (err.untrusted ? ` ${CERTIFICATE_HELP}` : '');
    return {
      text,
      buttons: ['Retry', 'Open Settings'],
      log: `could not load the ACP Registry from ${err.url}: ${err.detail}`,
      setting: REGISTRY_URL_SETTING,
    };
  }
  const why = messageOf(err);
  return { text: `Tandem could not load the ACP Registry: ${sentence(why)}`, buttons: ['Show Log'], log: why };
}

export interface Operation {
  verb: 'install' | 'update' | 'uninstall';
  /** The agent's name as the user knows it (its tandem.agents name, else the registry's name). */
  name: string;
  /** The installed version (update): said to stay. */
  from?: string;
  /** The version the update was to install. */
  to?: string;
}

/** An install, update or uninstall failed (not cancelled). */
export function operationFailure(op: Operation, err: unknown): RegistryMessage {
  if (err instanceof RegistryLoadError) {
    const load = loadFailure(err);
    return {
      ...load,
      text: `Tandem could not ${op.verb} ${op.name}: ${lowerFirst(load.text.replace(/^Tandem /, ''))}`,
    };
  }
  const target = op.verb === 'update' && op.to ? `${op.name} to ${op.to}` : op.name;
  const outcome =
    op.verb === 'install'
      ? ' Nothing was installed.'
      : op.verb === 'update' && op.from
        ? ` ${op.name} ${op.from} stays installed.`
        : '';
  let text: string;
  let log = messageOf(err);
  if (err instanceof ChecksumError) text = `Tandem refused to ${op.verb} ${target}: ${sentence(err.message)}`;
  else if (err instanceof ArchiveRefusedError) text = `Tandem did not ${op.verb} ${target}: ${sentence(err.message)}`;
  else if (err instanceof NetworkError) {
    text = `Tandem could not ${op.verb} ${target}: the download from ${err.host} failed: ${sentence(err.message)}`;
    if (err.untrusted) text += ` ${CERTIFICATE_HELP}`;
    log = `download from ${err.host} failed: ${err.detail}`;
  } else if (err instanceof NpmInstallError) {
    text = `Tandem could not ${op.verb} ${target}: ${sentence(err.message)} npm's full output is in the log.`;
    log = `${err.message} (npm code ${err.npmCode ?? 'none'}, exit ${err.exitCode})`;
  } else text = `Tandem could not ${op.verb} ${target}: ${sentence(messageOf(err))}`;
  return { text: text + outcome, buttons: ['Show Log'], log: `could not ${op.verb} ${target}: ${log}` };
}

/** `s` ending in a full stop (unless it ends in one already). */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
