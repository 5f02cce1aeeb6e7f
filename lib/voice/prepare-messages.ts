/** What the phonemizing thread is sent and what it answers. */
import type { ErrorCode } from '../core/errors.js';
import type { VoiceConfig } from './format/config.js';
import type { PreparedText } from './text.js';

export interface PrepareRequest {
  lines: readonly string[];
  config: VoiceConfig;
}

export type PrepareReply =
  { state: 'done'; prepared: PreparedText } | { state: 'failed'; message: string; code: ErrorCode | undefined };
