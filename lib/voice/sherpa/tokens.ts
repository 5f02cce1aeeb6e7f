import { PiperParallelError } from '../../core/errors.js';
import type { VoiceConfig } from '../format/config.js';

/**
 * sherpa-onnx's tokens.txt for a Piper voice: one `symbol id` per line, from phoneme_id_map. The
 * space symbol is written as a line starting with a space ("  3"), which sherpa reads as " ".
 * sherpa maps a symbol to one id; a symbol Piper maps to several cannot be said this way.
 */
export function tokensText(config: VoiceConfig, voiceName: string): string {
  if (config.phoneme_map && Object.keys(config.phoneme_map).length > 0) {
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${voiceName} has a phoneme_map, which sherpa-onnx does not apply; measure this voice with --engine onnxruntime`,
    );
  }
  const lines: string[] = [];
  for (const [symbol, ids] of Object.entries(config.phoneme_id_map)) {
    if (ids.length !== 1) {
      throw new PiperParallelError(
        'VOICE_LOAD',
        `voice ${voiceName}: phoneme "${symbol}" maps to ${ids.length} ids, which sherpa-onnx's tokens.txt ` +
          `cannot hold; measure this voice with --engine onnxruntime`,
      );
    }
    // sherpa reads one code point per symbol and splits the line on white space.
    if ([...symbol].length !== 1 || (symbol !== ' ' && /\s/u.test(symbol))) {
      throw new PiperParallelError(
        'VOICE_LOAD',
        `voice ${voiceName}: phoneme ${JSON.stringify(symbol)} is not one printable code point, which ` +
          `sherpa-onnx's tokens.txt cannot hold; measure this voice with --engine onnxruntime`,
      );
    }
    lines.push(`${symbol} ${ids[0]}`);
  }
  return `${lines.join('\n')}\n`;
}
