export const HELP = `piper-parallel: how many simultaneous Piper voice streams does this machine serve, and does the measurement prove it?

Usage:
  piper-parallel [PASSES] [options]        run the experiment (default 6 passes per arm)
  piper-parallel voices                    list installed voices
  piper-parallel voices build              (re)build the synthetic voices, print their sha256
  piper-parallel voices fetch NAME...      download real voices (checked against voices.json)
  piper-parallel phonemize [--voice NAME | --espeak-voice CODE] TEXT
  piper-parallel synth --voice NAME [--threads T] [--speaker ID|NAME] [--engine onnxruntime|sherpa]
                       --out FILE.wav TEXT
  piper-parallel compare A.json B.json [--tolerance PCT] [--json] [--force]
                                           compare two runs (exit 4 on a regression, 2 when
                                           nothing could be compared)
  piper-parallel report ARCHIVE.json [--format md|html] [--out FILE]
                                           a run as Markdown (default) or a self-contained HTML
                                           page with charts; to stdout unless --out
  piper-parallel capacity [options]        how many live streams each layout serves before a gap
  piper-parallel summary FILES|DIRS... [--price LABEL=AMOUNT]... [--price AMOUNT] [--out FILE.html] [--json]
                                           throughput and capacity archives of many machines,
                                           one row per machine and voice; --price is per hour
                                           (cost per live stream-hour and per hour of speech);
                                           --out writes the page and FILE.md beside it
  piper-parallel schema [throughput|capacity]   print the archives' JSON Schema

Capacity options (also --voice, --text-file, --settle, --out-dir, --voices-dir,
--resume, --json, --quiet, --no-report):
  --arrivals together|staggered|poisson   when listeners arrive (default staggered: spread evenly
                        over one mean sentence; poisson is seeded)
  --schedule fifo|deadline   the queue's order (default deadline: the sentence due soonest first)
  --first-audio-ms MS   the bound of the second answer: first audio p95 within it (default 500)
  --max-streams N       the sweep's ceiling (default 32)
  --rounds R            trials of each edge K and the next, fresh workers each (default 3)
  --sessions N          listener-sessions to hear at each answer (default 18: no gap among
                        them puts the gap rate below 15%, 95%)
  --max-minutes M       extra rounds for edges that moved only while within M minutes (default 8)
  --seed N              seed of the order and of poisson arrivals (default drawn, printed, archived)
  --label NAME          a name for this machine in summaries (archived)
  --isolation process|thread   workers as processes (default) or worker threads

Run options:
  --voice NAME          voice to measure (repeatable); default fr_FR-siwis-medium and
                        fr_FR-tom-medium when installed, else their synthetic stand-ins
  --streams LIST        simultaneous streams K, e.g. 1,2 (default conditions when no
                        --streams/--threads/--affinity: K=1; K=2 free; K=2 pinned; K=1 T=2)
  --threads LIST        onnxruntime intra-op threads per stream, e.g. 1,2
  --affinity on|off|both   one core per stream (util-linux taskset), or free
  --isolation process|thread|both   streams as child processes (default), as worker
                        threads of one process (SharedArrayBuffer barrier), or both
  --engine onnxruntime|sherpa|both   who runs the voice: onnxruntime-node (default), sherpa-onnx
                        (sherpa-onnx-node, as processes only), or both side by side
  --scope model|text    what a timed pass covers: phoneme ids to audio (model; default with
                        onnxruntime alone) or text to audio, phonemizing included (text; the
                        only scope sherpa-onnx has, so the default with sherpa or both)
  --settle SECONDS      wait up to this long for a busy machine to calm down (default 30)
  --warmup N            untimed passes each time an arm's streams start, in every round (default 1)
  --rounds R            split each arm's passes into R rounds; each round runs every arm once,
                        a voice's arms back to back (default PASSES: one pass per round)
  --seed N              seed of the rounds' order (default: drawn at random, archived and
                        printed; give it to repeat a run's orders exactly)
  --label NAME          a name for this machine in summaries (archived)
  --margin PCT          two layouts within ±PCT% of each other are called equivalent (default 6)
  --precision PCT       after a pilot (the planned rounds, at least 6), run the rounds its
                        spread calls for to bring every layout ratio's 95% interval within ±PCT%
  --max-minutes M       the time budget for --precision (default 30)
  --text-file FILE      one sentence per line (UTF-8); default built-in French sentences
  --out-dir DIR         where archives go (default ./measurements)
  --voices-dir DIR      the only place voices are read from and built into (default ./voices
                        when it holds real voices, else ~/.cache/piper-parallel/voices)
  --barrier-timeout S   seconds to wait for every stream at a barrier (default 120)
  --resume FILE         carry on an interrupted run (measurements/.partial/<run>.jsonl)
  --json                print the archive on stdout, everything else on stderr
  --quiet               print only the archive path (or the JSON); no progress
  --no-report           do not write the Markdown and HTML reports beside the archive
  --base-url URL        voices fetch: mirror of the piper-voices layout (or PIPER_VOICES_BASE_URL)
  -h, --help            this help
  --version             the tool's version

Exit codes: 0 every control held (compare: no regression; summary: every file read); 3 a control failed (nothing from the run may be
published); 4 compare found a regression; 1 error; 2 usage error, refusal, or a file summary could not read; 130 interrupted (finished arm rounds kept in
measurements/.partial/).
`;
