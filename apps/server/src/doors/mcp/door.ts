import { keyRefusalText } from '../../metering/key-refusals.js';
import { bearerKey } from '../../metering/keys.js';
import type { Door, Ending, PaidCall, Refusal } from '../../pipeline/door.js';
import { refusal } from '../../pipeline/refusal.js';
import type { KeyTicket } from '../key/door.js';

/**
 * The MCP door: a `tools/call` is metered by the key door (same statement, meter, ledger
 * rows and limits), and its results say `delivered: mcp`. MCP has no payment terms to
 * offer a caller without a key, and answers a `tools/call` without a valid key HTTP 401
 * (mcp.md §3): so a call without a key, or whose header holds no key of ours, is refused
 * `invalid_key` by its headers alone, before its params are read ({@link Door.screen});
 * whether a key is known and live is the admission's one statement, which reads the key
 * once (an unknown or revoked key is refused `invalid_key` by it).
 */
export function mcpDoor(key: Door<KeyTicket>): Door<KeyTicket> {
  const screen = (request: Pick<PaidCall, 'requestId' | 'header'>): Refusal | null => {
    const bearer = bearerKey(request.header('authorization'));
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
