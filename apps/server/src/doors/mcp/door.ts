import type { Credential } from '../../metering/access-tokens.js';
import { keyRefusalText } from '../../metering/key-refusals.js';
import type { Door, Ending, PaidCall, Refusal } from '../../pipeline/door.js';
import { refusal } from '../../pipeline/refusal.js';
import type { KeyTicket } from '../key/door.js';
import type { X402Door, X402Ticket } from '../x402/door.js';
import { dollars } from '../x402/terms.js';

/**
 * The MCP door of a call with a key: a `tools/call` is metered by the key door (same
 * statement, meter, ledger rows and limits), and its results say `delivered: mcp`. A
 * `tools/call` whose key is not valid is answered HTTP 401 (mcp.md §3): a header that
 * holds no key of ours is refused `invalid_key` by the headers alone, before the params
 * are read ({@link Door.screen}); whether a key is known and live is the admission's one
 * statement, which reads the key once (an unknown or revoked key is refused
 * `invalid_key` by it). A call without a key goes to {@link mcpPaymentDoor}.
 */
export function mcpDoor(
  key: Door<KeyTicket>,
  credential: (header: string | undefined) => Credential,
): Door<KeyTicket> {
  const screen = (request: Pick<PaidCall, 'requestId' | 'header'>): Refusal | null => {
    const bearer = credential(request.header('authorization'));
    if (bearer.kind === 'key') return null;
    return refusal('invalid_key', keyRefusalText(bearer), { requestId: request.requestId });
  };
  const { delivered } = key;
  return {
    name: 'mcp',
    screen,
    // The pipeline screens every call before admitting it, so the key is there.
    admit: (call) => key.admit(call),
    settle: (ticket, ending) => key.settle(ticket, ending),
    ...(delivered === undefined
      ? {}
      : {
          delivered: (ticket: KeyTicket, ending: Ending, written: boolean) =>
            delivered.call(key, ticket, ending, written),
        }),
  };
}

/**
 * The MCP door of a call without a key: the x402 door itself (same terms, claims,
 * binding to the call, verification and settlement, same receipts), paid as the x402 MCP
 * transport specifies. The MCP adapter hands the door `_meta["x402/payment"]` as the
 * payment header of its version, and turns the door's 402 terms into an `isError` tool
 * result and its settlement header into `_meta["x402/payment-response"]`. Its results
 * say `delivered: mcp`.
 */
export function mcpPaymentDoor(x402: X402Door): Door<X402Ticket> {
  return {
    name: 'mcp',
    async admit(call) {
      const admission = await x402.admit(call);
      // The terms of a call that sent no payment, in MCP's words rather than HTTP's.
      if (admission.kind !== 'refused' || admission.code !== 'payment_required') return admission;
      const price = dollars(call.price.amount);
      return x402.paymentRequired(
        call,
        'payment_required',
        `The ${call.route.name} tool costs ${price} per call; pay with x402 in params._meta["x402/payment"] or send an API key as \`Authorization: Bearer <key>\``,
      );
    },
    settle: (ticket, ending) => x402.settle(ticket, ending),
  };
}
