/**
 * Entry of a stream worker run as its own process (started by the process adapter, possibly
 * under taskset so the pinning holds before onnxruntime creates its threads).
 */
import { runProcessStream } from './process-host.js';

await runProcessStream();
