// Recorded ACP traffic as JSON lines `{"ms","dir":"c->a"|"a->c","msg"}`: the transcripts under
// test/fixtures/acp-transcripts and the recordings Tandem makes (src/acp/trafficRecorder.ts).
// No vscode, no SDK: plain JSON.

export type Id = number | string;
export interface RpcMessage {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
export interface TranscriptRecord {
  ms: number;
  dir: 'c->a' | 'a->c';
  msg: RpcMessage;
}

export function parseTranscript(text: string): TranscriptRecord[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TranscriptRecord);
}

/**
 * Lenient parse for recordings made by Tandem (src/acp/trafficRecorder.ts): a line that is not a
 * record (e.g. cut off when the window closed) is skipped and reported, never fatal.
 */
export function parseRecording(text: string): { records: TranscriptRecord[]; skipped: number[] } {
  const records: TranscriptRecord[] = [];
  const skipped: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const r = JSON.parse(line) as TranscriptRecord;
      if (r && typeof r === 'object' && (r.dir === 'c->a' || r.dir === 'a->c') && r.msg && typeof r.msg === 'object')
        records.push({ ...r, ms: Number(r.ms) || 0 });
      else skipped.push(i + 1);
    } catch {
      skipped.push(i + 1);
    }
  });
  return { records, skipped };
}

export const isRequest = (m: RpcMessage) => m.method !== undefined && m.id !== undefined && m.id !== null;
export const isResponse = (m: RpcMessage) => m.method === undefined && m.id !== undefined;
