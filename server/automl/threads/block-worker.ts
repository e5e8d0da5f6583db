// The histogram block workers of the pool: plain JavaScript evaluated from a string, and the
// shared control block through which the training thread publishes a build of feature blocks.
// A build is any function of the shape below (gbm/histogram.ts generates them); the pool knows
// nothing else of what it builds.

/** Fills hist from rows idx[s, e) with gradients g / hessians h (indexed by absolute row). */
export type BlockFn = (
  hist: Float64Array,
  bins: Uint8Array,
  idx: Int32Array,
  s: number,
  e: number,
  g: Float64Array,
  h: Float64Array,
) => void;

/** A block builder's source, compiled by each worker once: `new Function('off', src)(offC)`. */
export interface BlockSource {
  /** Body of `function (off) { return function build(hist, bins, idx, s, e, g, h) {...} }`. */
  src: string;
  /** The generated code's `off` argument. */
  offC: Int32Array;
}

// Control block (Int32 slots).
export const SEQ = 0; // current build; workers wait for it to change
export const CLAIM = 1; // (seq << 8) | next unclaimed block
export const DONE = 2; // blocks finished in the current build
export const NBLOCK = 3;
export const ARGS = 4; // hist, bins, idx, g, h buffer ids, then s, e
export const EXIT = 11;
export const ERROR = 12;
export const FNS = 16; // builder id of each block
export const MAX_BLOCKS = 64;
export const SEQ_MASK = 0x3fffff;

/**
 * The worker: plain JavaScript evaluated from this string (no module loading, so it starts in a few
 * milliseconds under tsx, Vitest or plain Node alike). Buffers and generated builders arrive as
 * messages, read synchronously when a build is published.
 */
export const WORKER_SOURCE = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { ctl, port } = workerData;
const bufs = new Map();
const fns = new Map();
const drain = () => {
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
    const d = m.message;
    if (d.t === 'buf') bufs.set(d.id, d.a);
    else if (d.t === 'fn') fns.set(d.id, new Function('off', d.src)(d.offC));
    else for (const id of d.ids) { bufs.delete(id); fns.delete(id); }
  }
};
let seen = 0;
for (;;) {
  Atomics.wait(ctl, ${SEQ}, seen);
  if (Atomics.load(ctl, ${EXIT})) break;
  const seq = Atomics.load(ctl, ${SEQ});
  seen = seq;
  drain();
  for (;;) {
    const v = Atomics.load(ctl, ${CLAIM});
    const c = v & 255;
    if (v >>> 8 !== seq || c >= ctl[${NBLOCK}]) break;
    if (Atomics.compareExchange(ctl, ${CLAIM}, v, v + 1) !== v) continue;
    try {
      fns.get(ctl[${FNS} + c])(bufs.get(ctl[${ARGS}]), bufs.get(ctl[${ARGS + 1}]),
        bufs.get(ctl[${ARGS + 2}]), ctl[${ARGS + 5}], ctl[${ARGS + 6}], bufs.get(ctl[${ARGS + 3}]),
        bufs.get(ctl[${ARGS + 4}]));
    } catch {
      Atomics.store(ctl, ${ERROR}, 1);
    }
    Atomics.add(ctl, ${DONE}, 1);
    Atomics.notify(ctl, ${DONE});
  }
}
`;
