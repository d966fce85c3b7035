import { Facilitator } from './server-deps.js';

/** Durations (ms) of the service's facilitator requests since the last {@link FacilitatorTimer.take}. */
export interface FacilitatorTimes {
  readonly verify: number[];
  readonly settle: number[];
}

/** Times every `verify` and `settle` of the service's x402 facilitator client. */
export interface FacilitatorTimer {
  /** The durations recorded since the last call, and start afresh. */
  take(): FacilitatorTimes;
  /** Put the client's own methods back. */
  restore(): void;
}

/**
 * Wrap `Facilitator.prototype.verify` and `.settle` (the server's own client, the module
 * its routes use) so each call's duration is recorded as the server waits for it: the
 * HTTP request, the facilitator's work (for a settlement: the transaction and its
 * receipt) and the answer's parsing. The wrapper adds two `performance.now()` calls.
 */
export function timeFacilitator(): FacilitatorTimer {
  const proto = Facilitator.prototype;
  const { verify, settle } = proto;
  let times: FacilitatorTimes = { verify: [], settle: [] };
  proto.verify = async function timedVerify(this: Facilitator, ...args) {
    const start = performance.now();
    try {
      return await verify.apply(this, args);
    } finally {
      times.verify.push(performance.now() - start);
    }
  };
  proto.settle = async function timedSettle(this: Facilitator, ...args) {
    const start = performance.now();
    try {
      return await settle.apply(this, args);
    } finally {
      times.settle.push(performance.now() - start);
    }
  };
  return {
    take() {
      const taken = times;
      times = { verify: [], settle: [] };
      return taken;
    },
    restore() {
      proto.verify = verify;
      proto.settle = settle;
    },
  };
}
