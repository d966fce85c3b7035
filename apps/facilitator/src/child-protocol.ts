import type { PaymentStackInfo } from './stack.js';

/**
 * What `child.ts` tells the process that forked it, over the IPC channel: once, where the
 * stack is when it runs, or why it could not start.
 */
export type ChildMessage =
  | { readonly kind: 'ready'; readonly stack: PaymentStackInfo }
  | { readonly kind: 'failed'; readonly message: string };
