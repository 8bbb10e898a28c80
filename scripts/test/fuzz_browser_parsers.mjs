// The Node fuzz loop over every browser parser (issue 9) and the session and link readers (issue 23:
// tests/fuzz/browser/sessions.ts, targets session_file, link_state, link_deflated, and the Compare lab's
// link_compare, link_compare_params), and the Compare lab's readers (parsers.ts: safetensors_matrices,
// parquet_matrices, npy_stream), run by
// scripts/test/fuzz.sh after the libFuzzer harnesses. tests/fuzz/browser/parsers.ts and sessions.ts are
// bundled for Node (Vite, SSR build) into build/fuzz/browser;
// each target's valid seed files (and the hostile ones it must refuse, parsers.ts hostileSeeds) are mutated (bit flips, interesting integers, inserted, deleted and
// repeated bytes, splices with other seeds, truncation) and parsed in a worker thread with a time limit
// per input (confirmed once with 5 times the limit) and a 1 GB heap. A finding is a parse that throws anything but a FileError naming the file,
// returns inconsistent data, exceeds the time limit or runs out of memory; its input is kept under
// build/fuzz/findings/browser/<target>/ and the run fails. Parquet hangs and crashes (targets parquet and
// parquet_matrices) are the known upstream bug of hyparquet (docs/upstream/hyparquet-hybrid-run-hang.md) that
// the app contains with a terminable parse worker (the Probe tab's and the Compare lab's Parquet alike):
// they are kept under build/fuzz/findings/browser/parquet-contained/ and counted, not failed.
// parquet_matrices runs in a child process rather than a worker thread: its crash is a V8 fatal error
// ("invalid size": a definition-level run of 2^31 - 1 values grows a plain Array) that aborts the whole
// Node process, which only a process boundary contains (in Chromium the same input ends the parse worker
// with a RangeError, and isolated_parse.ts reports it).
//
//   node scripts/test/fuzz_browser_parsers.mjs --seconds 20 [--only npz] [--seed 7] [--timeout-ms 2000]
//   node scripts/test/fuzz_browser_parsers.mjs --sweep --seconds 600 [--only parquet]   every truncation and
//                                                   near-limit integer at every offset of every seed (sweepOf)
//   node scripts/test/fuzz_browser_parsers.mjs --replay npz build/fuzz/findings/browser/npz/<file>
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const seconds = Number(option('seconds', '30'));
const timeoutMs = Number(option('timeout-ms', '2000'));
let state = Number(option('seed', String(Date.now() % 2 ** 31))) >>> 0 || 1;
const only = args.flatMap((a, i) => (args[i - 1] === '--only' ? [a] : []));
const replay = option('replay', null);
// --sweep: instead of random mutations, every seed's deterministic variants (sweepOf), until done or the time is up.
const sweep = args.includes('--sweep');

const out = resolve(root, 'build/fuzz/browser');
mkdirSync(out, { recursive: true });
// Two bundles, each a worker module of its own: the file parsers, and sessions and links (sessions.ts).
const bundles = {};
for (const entry of ['parsers', 'sessions']) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: resolve(root, `tests/fuzz/browser/${entry}.ts`),
      outDir: resolve(out, entry),
      emptyOutDir: true,
      target: 'node20',
    },
  });
  bundles[entry] = resolve(out, entry, `${entry}.js`);
}
const modules = Object.fromEntries(
  await Promise.all(Object.entries(bundles).map(async ([k, b]) => [k, await import(pathToFileURL(b).href)])),
);
const TARGETS = Object.assign({}, ...Object.values(modules).map((m) => m.TARGETS));
const seeds = () => Object.assign({}, ...Object.values(modules).map((m) => m.seeds()));
// Files a target must refuse (parsers.ts hostileSeeds: the lies its readers were fixed to catch).
const hostileSeeds = () => Object.assign({}, ...Object.values(modules).map((m) => m.hostileSeeds?.() ?? {}));
const bundleOf = (target) => bundles[Object.keys(modules).find((k) => target in modules[k].TARGETS)];

// xorshift32: the same mutations for the same --seed.
const random = () => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
};
const below = (n) => Math.floor(random() * n);
const INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe];

function mutate(input, pool) {
  let b = Uint8Array.from(input);
  for (let n = 1 + below(4); n > 0; n--) {
    const at = below(Math.max(1, b.length));
    switch (below(8)) {
      case 0:
        if (b.length) b[at] ^= 1 << below(8);
        break;
      case 1:
        if (b.length) b[at] = INTERESTING[below(5)];
        break;
      case 2: {
        // a little-endian 32-bit integer: lengths, offsets, counts
        const v = INTERESTING[below(INTERESTING.length)];
        for (let k = 0; k < 4 && at + k < b.length; k++) b[at + k] = (v >>> (8 * k)) & 0xff;
        break;
      }
      case 3: {
        // delete a run
        const len = 1 + below(16);
        b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + len)]);
        break;
      }
      case 4: {
        // insert random bytes or ASCII digits (text headers, shapes)
        const len = 1 + below(8);
        const ins = Uint8Array.from({ length: len }, () => (random() < 0.5 ? 0x30 + below(10) : below(256)));
        b = Uint8Array.from([...b.subarray(0, at), ...ins, ...b.subarray(at)]);
        break;
      }
      case 5: {
        // repeat a run (nesting, long lines)
        const len = 1 + below(32);
        const run = b.subarray(at, at + len);
        const copies = 1 + below(8);
        b = Uint8Array.from([
          ...b.subarray(0, at + len),
          ...Array.from({ length: copies }, () => [...run]).flat(),
          ...b.subarray(at + len),
        ]);
        break;
      }
      case 6: {
        // splice with another seed
        const other = pool[below(pool.length)];
        const from = below(Math.max(1, other.length));
        b = Uint8Array.from([...b.subarray(0, at), ...other.subarray(from, from + 1 + below(64))]);
        break;
      }
      default:
        b = b.subarray(0, at); // truncate
    }
  }
  return b;
}

/**
 * The deterministic variants of a seed (--sweep): every truncation, and at every offset a little-endian
 * 32-bit 2^31 - 1, 2^31 and 2^32 - 1 (lengths, offsets, counts near the limits of int32 and uint32), and
 * in its first and last 64 bytes a 64-bit 2^31, 2^53, 2^53 + 1 and 2^63 (safetensors' header length,
 * Parquet's footer). Seeds over 8 KB: only the offsets within 2 KB of either end.
 */
function* sweepOf(seed) {
  const n = seed.length;
  const offsets =
    n <= 8192 ? [...Array(n).keys()] : [...Array(2048).keys(), ...Array.from({ length: 2048 }, (_, i) => n - 2048 + i)];
  for (const at of offsets) yield seed.subarray(0, at);
  for (const at of offsets) {
    for (const v of [0x7fffffff, 0x80000000, 0xffffffff]) {
      if (at + 4 > n) continue;
      const b = Uint8Array.from(seed);
      new DataView(b.buffer).setUint32(at, v, true);
      yield b;
    }
  }
  for (const at of offsets.filter((k) => k < 64 || k >= n - 64)) {
    for (const v of [2n ** 31n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n]) {
      if (at + 8 > n) continue;
      const b = Uint8Array.from(seed);
      new DataView(b.buffer).setBigUint64(at, v, true);
      yield b;
    }
  }
}

/** Targets whose inputs run in a child process (a process abort is an outcome there, not the runner's end). */
const IN_CHILD_PROCESS = ['parquet', 'parquet_matrices'];
/** Targets whose timeouts and crashes are hyparquet's contained bug, not findings. */
const PARQUET_CONTAINED = ['parquet', 'parquet_matrices'];

/** A child process running the bundle, with the worker-thread interface the runner uses. */
function childWorker(bundle) {
  const proc = fork(bundle, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    execArgv: ['--max-old-space-size=1024'],
    env: { ...process.env, GPPROBE_FUZZ_CHILD: '1' },
  });
  const wrapper = {
    once(event, f) {
      proc.once(event, event === 'exit' ? (code, signal) => f(signal ?? code) : f);
      return wrapper;
    },
    removeAllListeners(event) {
      proc.removeAllListeners(event);
      return wrapper;
    },
    postMessage: (message) => proc.send(message),
    terminate: () => {
      proc.kill('SIGKILL');
    },
    unref: () => proc.unref(), // the IPC channel stays referenced while the runner waits for an answer
  };
  return wrapper;
}

class Runner {
  #worker = null;
  #bundle = null;
  /** A fresh worker, once it has loaded the bundle (its 'ready' message), so loading is never timed. */
  #inChild = false;
  async #start(bundle, inChild) {
    const worker = inChild
      ? childWorker(bundle)
      : new Worker(bundle, { resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.unref();
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.removeAllListeners('error');
    this.#worker = worker;
    this.#bundle = bundle;
    this.#inChild = inChild;
  }
  /**
   * The outcome of one input: parsed / refused / defect, or 'timeout' / 'crash'. A timeout is tried
   * once more with 5 times the limit, so a machine busy with other work does not make findings (not
   * for Parquet, whose hangs are known and contained either way).
   */
  async run(target, bytes) {
    const outcome = await this.#once(target, bytes, timeoutMs);
    return outcome.kind === 'timeout' && !PARQUET_CONTAINED.includes(target)
      ? this.#once(target, bytes, 5 * timeoutMs)
      : outcome;
  }
  async #once(target, bytes, limit) {
    const inChild = IN_CHILD_PROCESS.includes(target);
    if (this.#worker && (this.#bundle !== bundleOf(target) || this.#inChild !== inChild)) this.stop();
    if (!this.#worker) await this.#start(bundleOf(target), inChild);
    const worker = this.#worker;
    return new Promise((resolve) => {
      const done = (outcome, restart) => {
        clearTimeout(timer);
        worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
        if (restart) {
          void worker.terminate();
          this.#worker = null;
        }
        resolve(outcome);
      };
      const timer = setTimeout(() => done({ kind: 'timeout', detail: `no answer within ${limit} ms` }, true), limit);
      worker.once('message', (outcome) => done(outcome, false));
      worker.once('error', (error) => done({ kind: 'crash', detail: String(error) }, true));
      worker.once('exit', (code) => done({ kind: 'crash', detail: `the worker exited (${code})` }, true));
      worker.postMessage({ target, bytes });
    });
  }
  stop() {
    void this.#worker?.terminate();
    this.#worker = null;
  }
}

const runner = new Runner();
if (replay) {
  const [target, file] = [replay, args[args.indexOf('--replay') + 2]];
  const outcome = await runner.run(target, new Uint8Array(readFileSync(file)));
  console.log(`fuzz: ${target} ${file}: ${outcome.kind}${outcome.detail ? ` (${outcome.detail})` : ''}`);
  runner.stop();
  process.exit(outcome.kind === 'parsed' || outcome.kind === 'refused' ? 0 : 1);
}

const all = seeds();
const hostile = hostileSeeds();
const targets = Object.keys(TARGETS).filter((t) => only.length === 0 || only.includes(t));
if (targets.length === 0) {
  console.error(`fuzz: no browser parser named ${only.join(', ')} (${Object.keys(TARGETS).join(', ')})`);
  process.exit(2);
}
let failed = false;
for (const target of targets) {
  const valid = all[target];
  const refuse = hostile[target] ?? [];
  const pool = [...valid, ...refuse];
  const counts = { parsed: 0, refused: 0, contained: 0, findings: 0 };
  // Every valid seed must parse as it is, every hostile one be refused naming the file; then mutations
  // of either until the time is up.
  for (const [i, seed] of pool.entries()) {
    const want = i < valid.length ? 'parsed' : 'refused';
    const outcome = await runner.run(target, seed);
    if (outcome.kind !== want) {
      const which = want === 'parsed' ? `valid seed ${i}` : `hostile seed ${i - valid.length}`;
      console.error(`fuzz: browser ${target}: ${which} was not ${want}: ${outcome.kind} ${outcome.detail ?? ''}`);
      failed = true;
    }
  }
  const end = Date.now() + seconds * 1000;
  const swept = sweep
    ? (function* () {
        for (const seed of pool) yield* sweepOf(seed);
      })()
    : null;
  while (Date.now() < end) {
    let input;
    if (swept) {
      const next = swept.next();
      if (next.done) break;
      input = next.value;
    } else {
      // A quarter of the inputs start from a hostile seed, the rest from a valid one, as before there were any.
      const from = refuse.length > 0 && random() < 0.25 ? refuse : valid;
      input = mutate(from[below(from.length)], pool);
    }
    const outcome = await runner.run(target, input);
    if (outcome.kind === 'parsed' || outcome.kind === 'refused') {
      counts[outcome.kind]++;
      continue;
    }
    const contained = PARQUET_CONTAINED.includes(target) && (outcome.kind === 'timeout' || outcome.kind === 'crash');
    const dir = resolve(root, 'build/fuzz/findings/browser', contained ? 'parquet-contained' : target);
    mkdirSync(dir, { recursive: true });
    const path = resolve(dir, createHash('sha1').update(input).digest('hex').slice(0, 16));
    writeFileSync(path, input);
    if (contained) {
      counts.contained++;
    } else {
      counts.findings++;
      failed = true;
      if (counts.findings <= 5)
        console.error(`fuzz: browser ${target}: FINDING ${outcome.kind}: ${outcome.detail} (reproducer ${path})`);
    }
  }
  const total = counts.parsed + counts.refused + counts.contained + counts.findings;
  console.log(
    `fuzz: browser ${target}: ${total} ${sweep ? 'swept ' : ''}inputs in ${seconds} s (${counts.parsed} parsed, ${counts.refused} refused with the file named` +
      `${counts.contained ? `, ${counts.contained} hyparquet hangs or crashes contained` : ''}), ${counts.findings ? `${counts.findings} FINDINGS` : 'no finding'}`,
  );
}
runner.stop();
process.exit(failed ? 1 : 0);
