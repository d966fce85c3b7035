import {
  PaymentPayloadV1Schema,
  PaymentPayloadV2Schema,
  PaymentRequirementsV1Schema,
  PaymentRequirementsV2Schema,
} from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';

/** A `/verify` or `/settle` body that is safe to hand to the x402 facilitator. */
export interface FacilitatorRequest {
  readonly x402Version: 1 | 2;
  readonly paymentPayload: PaymentPayload;
  readonly paymentRequirements: PaymentRequirements;
}

/** Why a body was refused: a reason code from the x402 specification (§9) and a sentence. */
export interface RequestProblem {
  readonly reason: 'invalid_x402_version' | 'invalid_payload' | 'invalid_payment_requirements';
  readonly message: string;
}

export type ParsedRequest =
  | { readonly ok: true; readonly request: FacilitatorRequest }
  | { readonly ok: false; readonly problem: RequestProblem };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT256 = /^[0-9]{1,78}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;
/** A Permit2 nonce: any uint256, in decimal (as the official client writes it) or hex. */
const PERMIT2_NONCE = /^(?:[0-9]{1,78}|0x[0-9a-fA-F]{1,64})$/;

/** The batch-settlement scheme: its channel manager's terms carry `maxTimeoutSeconds: 0`. */
const BATCH_SETTLEMENT = 'batch-settlement';

/**
 * Check a request body before the facilitator sees it. The x402 schemas check the envelope;
 * the EVM `exact` scheme then reads the EIP-3009 fields without checking them (a missing
 * `authorization` is a TypeError, a non-numeric amount a SyntaxError), so the payload fields
 * of the scheme the terms name are checked here too, and a malformed body is the caller's
 * error, not the facilitator's.
 */
export function parseFacilitatorRequest(body: unknown): ParsedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return problem('invalid_payload', 'the body must be a JSON object');
  }
  const { x402Version, paymentPayload, paymentRequirements } = body as Record<string, unknown>;
  if (x402Version !== 1 && x402Version !== 2) {
    return problem(
      'invalid_x402_version',
      `\`x402Version\` must be 1 or 2, got \`${JSON.stringify(x402Version) ?? 'nothing'}\``,
    );
  }
  const payloadSchema = x402Version === 1 ? PaymentPayloadV1Schema : PaymentPayloadV2Schema;
  const accepted = (paymentPayload as { accepted?: unknown } | null | undefined)?.accepted;
  const payload = payloadSchema.safeParse(
    zeroTimeout(accepted)
      ? { ...(paymentPayload as object), accepted: schemaView(accepted) }
      : paymentPayload,
  );
  if (!payload.success) {
    const version = (paymentPayload as { x402Version?: unknown } | null)?.x402Version;
    if (version !== undefined && version !== x402Version) {
      return problem(
        'invalid_x402_version',
        `\`paymentPayload.x402Version\` (${JSON.stringify(version)}) differs from \`x402Version\` (${x402Version})`,
      );
    }
    return problem('invalid_payload', `\`paymentPayload\`: ${zodSummary(payload.error)}`);
  }
  const payloadProblem = PAYLOAD_CHECKS[schemeOf(paymentRequirements)]?.(payload.data.payload);
  if (payloadProblem) return problem('invalid_payload', payloadProblem);

  const requirementsSchema =
    x402Version === 1 ? PaymentRequirementsV1Schema : PaymentRequirementsV2Schema;
  const requirements = requirementsSchema.safeParse(schemaView(paymentRequirements));
  if (!requirements.success) {
    return problem(
      'invalid_payment_requirements',
      `\`paymentRequirements\` (x402 v${x402Version}): ${zodSummary(requirements.error)}`,
    );
  }
  const fields = requirements.data as Record<string, unknown>;
  const amountField = x402Version === 1 ? 'maxAmountRequired' : 'amount';
  const requirementsProblem =
    fieldProblem(fields, amountField, UINT256, 'an integer string of atomic units') ??
    fieldProblem(fields, 'asset', ADDRESS, 'a 0x address') ??
    fieldProblem(fields, 'payTo', ADDRESS, 'a 0x address');
  if (requirementsProblem) {
    return problem('invalid_payment_requirements', `\`paymentRequirements.${requirementsProblem}`);
  }
  const data = payload.data as unknown as PaymentPayload;
  return {
    ok: true,
    request: {
      x402Version,
      // The schemas saw a zero timeout as 1 (`schemaView`); the facilitator gets it as sent.
      paymentPayload: zeroTimeout(accepted)
        ? { ...data, accepted: withTimeout0(data.accepted) }
        : data,
      paymentRequirements: zeroTimeout(paymentRequirements)
        ? withTimeout0(requirements.data as PaymentRequirements)
        : (requirements.data as PaymentRequirements),
    },
  };
}

/**
 * Terms as the x402 schemas should see them. The official batch-settlement channel manager
 * sends its claims, settlements and refunds with `maxTimeoutSeconds: 0` (they wait on no
 * resource), which the schemas refuse (at least 1): for that scheme a 0 is checked as a 1.
 */
function schemaView(terms: unknown): unknown {
  return zeroTimeout(terms) ? { ...(terms as object), maxTimeoutSeconds: 1 } : terms;
}

/** Whether `terms` are batch-settlement terms with `maxTimeoutSeconds: 0`. */
function zeroTimeout(terms: unknown): boolean {
  return (
    schemeOf(terms) === BATCH_SETTLEMENT &&
    (terms as { maxTimeoutSeconds?: unknown }).maxTimeoutSeconds === 0
  );
}

function withTimeout0<T extends object>(terms: T): T {
  return { ...terms, maxTimeoutSeconds: 0 };
}

/**
 * The payload checks by scheme: the facilitator picks the scheme from the terms, so the
 * payload must have that scheme's shape. A scheme not here is refused later as unsupported.
 */
const PAYLOAD_CHECKS: Readonly<
  Record<string, (payload: Record<string, unknown>) => string | undefined>
> = {
  exact: checkExactEvmPayload,
  upto: checkUptoEvmPayload,
  [BATCH_SETTLEMENT]: checkBatchSettlementPayload,
};

/** The `scheme` a (possibly malformed) `paymentRequirements` names, or `""`. */
function schemeOf(requirements: unknown): string {
  const scheme = (requirements as { scheme?: unknown } | null | undefined)?.scheme;
  return typeof scheme === 'string' ? scheme : '';
}

/** The EIP-3009 payload of the `exact` EVM scheme: `{signature, authorization: {…}}`. */
function checkExactEvmPayload(payload: Record<string, unknown>): string | undefined {
  const signature = fieldProblem(payload, 'signature', HEX_BYTES, 'hex bytes');
  if (signature) return `\`paymentPayload.payload.${signature}`;
  const authorization = payload.authorization;
  if (typeof authorization !== 'object' || authorization === null) {
    return '`paymentPayload.payload.authorization` must be an object (an EIP-3009 authorization)';
  }
  const fields = authorization as Record<string, unknown>;
  const found =
    fieldProblem(fields, 'from', ADDRESS, 'a 0x address') ??
    fieldProblem(fields, 'to', ADDRESS, 'a 0x address') ??
    fieldProblem(fields, 'value', UINT256, 'an integer string') ??
    fieldProblem(fields, 'validAfter', UINT256, 'an integer string') ??
    fieldProblem(fields, 'validBefore', UINT256, 'an integer string') ??
    fieldProblem(fields, 'nonce', BYTES32, '32 bytes in hex');
  return found && `\`paymentPayload.payload.authorization.${found}`;
}

/**
 * The Permit2 payload of the `upto` EVM scheme:
 * `{signature, permit2Authorization: {from, permitted: {token, amount}, spender, nonce,
 * deadline, witness: {to, facilitator, validAfter}}}`.
 */
function checkUptoEvmPayload(payload: Record<string, unknown>): string | undefined {
  const signature = fieldProblem(payload, 'signature', HEX_BYTES, 'hex bytes');
  if (signature) return `\`paymentPayload.payload.${signature}`;
  const where = 'paymentPayload.payload.permit2Authorization';
  const authorization = objectField(payload, 'permit2Authorization');
  if (!authorization) return `\`${where}\` must be an object (a Permit2 authorization)`;
  const permitted = objectField(authorization, 'permitted');
  if (!permitted) return `\`${where}.permitted\` must be an object ({token, amount})`;
  const witness = objectField(authorization, 'witness');
  if (!witness) return `\`${where}.witness\` must be an object ({to, facilitator, validAfter})`;
  const found =
    prefixed('', fieldProblem(authorization, 'from', ADDRESS, 'a 0x address')) ??
    prefixed('', fieldProblem(authorization, 'spender', ADDRESS, 'a 0x address')) ??
    prefixed('', fieldProblem(authorization, 'nonce', PERMIT2_NONCE, 'a uint256')) ??
    prefixed('', fieldProblem(authorization, 'deadline', UINT256, 'an integer string')) ??
    prefixed('permitted.', fieldProblem(permitted, 'token', ADDRESS, 'a 0x address')) ??
    prefixed('permitted.', fieldProblem(permitted, 'amount', UINT256, 'an integer string')) ??
    prefixed('witness.', fieldProblem(witness, 'to', ADDRESS, 'a 0x address')) ??
    prefixed('witness.', fieldProblem(witness, 'facilitator', ADDRESS, 'a 0x address')) ??
    prefixed('witness.', fieldProblem(witness, 'validAfter', UINT256, 'an integer string'));
  return found && `\`${where}.${found}`;
}

/** A uint128 in decimal: the amounts of the batch-settlement contract. */
const UINT128 = /^[0-9]{1,39}$/;
const MAX_UINT128 = 2n ** 128n - 1n;
/** A channel's withdrawal delay: a uint40, as a JSON number. */
const MAX_UINT40 = 2 ** 40 - 1;

/**
 * The payloads of the `batch-settlement` EVM scheme, by `type`: a client's `deposit`,
 * `voucher` or `refund` (all with `channelConfig` and `voucher`), and the channel manager's
 * `claim` (`claims`), `settle` (`receiver`, `token`) and enriched `refund`.
 */
function checkBatchSettlementPayload(payload: Record<string, unknown>): string | undefined {
  const where = 'paymentPayload.payload';
  const found = batchSettlementProblem(payload);
  return found && `\`${where}.${found}`;
}

function batchSettlementProblem(payload: Record<string, unknown>): string | undefined {
  switch (payload.type) {
    case 'deposit':
      return channelPaymentProblem(payload) ?? depositProblem(payload);
    case 'voucher':
      return channelPaymentProblem(payload);
    case 'refund':
      return (
        channelPaymentProblem(payload) ??
        optional(payload, 'amount', (value) => uint128Problem('amount', value)) ??
        optional(payload, 'refundNonce', () =>
          fieldProblem(payload, 'refundNonce', UINT256, 'an integer string'),
        ) ??
        optional(payload, 'claims', () => claimsProblem(payload)) ??
        optional(payload, 'refundAuthorizerSignature', () =>
          fieldProblem(payload, 'refundAuthorizerSignature', HEX_BYTES, 'hex bytes'),
        ) ??
        optional(payload, 'claimAuthorizerSignature', () =>
          fieldProblem(payload, 'claimAuthorizerSignature', HEX_BYTES, 'hex bytes'),
        )
      );
    case 'claim':
      return (
        claimsProblem(payload) ??
        optional(payload, 'claimAuthorizerSignature', () =>
          fieldProblem(payload, 'claimAuthorizerSignature', HEX_BYTES, 'hex bytes'),
        )
      );
    case 'settle':
      return (
        fieldProblem(payload, 'receiver', ADDRESS, 'a 0x address') ??
        fieldProblem(payload, 'token', ADDRESS, 'a 0x address')
      );
    default:
      return `type\` must be one of deposit, voucher, refund, claim, settle, got \`${JSON.stringify(payload.type) ?? 'nothing'}\``;
  }
}

/** `channelConfig` and the signed `voucher` of a client's payment. */
function channelPaymentProblem(payload: Record<string, unknown>): string | undefined {
  const config = objectField(payload, 'channelConfig');
  if (!config) return 'channelConfig` must be an object (a channel config)';
  const voucher = objectField(payload, 'voucher');
  if (!voucher) return 'voucher` must be an object ({channelId, maxClaimableAmount, signature})';
  return (
    prefixed('channelConfig.', channelConfigProblem(config)) ??
    prefixed('voucher.', fieldProblem(voucher, 'channelId', BYTES32, '32 bytes in hex')) ??
    prefixed('voucher.', uint128Problem('maxClaimableAmount', voucher.maxClaimableAmount)) ??
    prefixed('voucher.', fieldProblem(voucher, 'signature', HEX_BYTES, 'hex bytes'))
  );
}

function channelConfigProblem(config: Record<string, unknown>): string | undefined {
  for (const name of ['payer', 'payerAuthorizer', 'receiver', 'receiverAuthorizer', 'token']) {
    const found = fieldProblem(config, name, ADDRESS, 'a 0x address');
    if (found) return found;
  }
  const delay = config.withdrawDelay;
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_UINT40) {
    return `withdrawDelay\` must be a whole number of seconds, got \`${JSON.stringify(delay) ?? 'nothing'}\``;
  }
  return fieldProblem(config, 'salt', BYTES32, '32 bytes in hex');
}

/** `deposit: {amount, authorization: {erc3009Authorization | permit2Authorization}}`. */
function depositProblem(payload: Record<string, unknown>): string | undefined {
  const deposit = objectField(payload, 'deposit');
  if (!deposit) return 'deposit` must be an object ({amount, authorization})';
  const amount = uint128Problem('amount', deposit.amount);
  if (amount) return `deposit.${amount}`;
  const authorization = objectField(deposit, 'authorization');
  if (!authorization) return 'deposit.authorization` must be an object';
  const erc3009 = objectField(authorization, 'erc3009Authorization');
  const permit2 = objectField(authorization, 'permit2Authorization');
  const at = 'deposit.authorization.';
  if (erc3009) {
    return prefixed(
      `${at}erc3009Authorization.`,
      fieldProblem(erc3009, 'validAfter', UINT256, 'an integer string') ??
        fieldProblem(erc3009, 'validBefore', UINT256, 'an integer string') ??
        fieldProblem(erc3009, 'salt', BYTES32, '32 bytes in hex') ??
        fieldProblem(erc3009, 'signature', HEX_BYTES, 'hex bytes'),
    );
  }
  if (permit2) {
    const permitted = objectField(permit2, 'permitted');
    if (!permitted)
      return `${at}permit2Authorization.permitted\` must be an object ({token, amount})`;
    const witness = objectField(permit2, 'witness');
    if (!witness) return `${at}permit2Authorization.witness\` must be an object ({channelId})`;
    return prefixed(
      `${at}permit2Authorization.`,
      fieldProblem(permit2, 'from', ADDRESS, 'a 0x address') ??
        fieldProblem(permit2, 'spender', ADDRESS, 'a 0x address') ??
        fieldProblem(permit2, 'nonce', PERMIT2_NONCE, 'a uint256') ??
        fieldProblem(permit2, 'deadline', UINT256, 'an integer string') ??
        fieldProblem(permit2, 'signature', HEX_BYTES, 'hex bytes') ??
        prefixed('permitted.', fieldProblem(permitted, 'token', ADDRESS, 'a 0x address')) ??
        prefixed('permitted.', fieldProblem(permitted, 'amount', UINT256, 'an integer string')) ??
        prefixed('witness.', fieldProblem(witness, 'channelId', BYTES32, '32 bytes in hex')),
    );
  }
  return `${at}erc3009Authorization\` or \`${at}permit2Authorization\` must be an object`;
}

/** `claims`: a non-empty array of `{voucher: {channel, maxClaimableAmount}, signature, totalClaimed}`. */
function claimsProblem(payload: Record<string, unknown>): string | undefined {
  const claims = payload.claims;
  if (!Array.isArray(claims))
    return `claims\` must be an array, got \`${JSON.stringify(claims) ?? 'nothing'}\``;
  if (payload.type === 'claim' && claims.length === 0) return 'claims` must not be empty';
  for (const [i, claim] of claims.entries()) {
    const at = `claims.${i}.`;
    if (typeof claim !== 'object' || claim === null || Array.isArray(claim)) {
      return `${at.slice(0, -1)}\` must be an object`;
    }
    const fields = claim as Record<string, unknown>;
    const voucher = objectField(fields, 'voucher');
    if (!voucher) return `${at}voucher\` must be an object ({channel, maxClaimableAmount})`;
    const channel = objectField(voucher, 'channel');
    if (!channel) return `${at}voucher.channel\` must be an object (a channel config)`;
    const found =
      prefixed(`${at}voucher.channel.`, channelConfigProblem(channel)) ??
      prefixed(`${at}voucher.`, uint128Problem('maxClaimableAmount', voucher.maxClaimableAmount)) ??
      prefixed(at, fieldProblem(fields, 'signature', HEX_BYTES, 'hex bytes')) ??
      prefixed(at, uint128Problem('totalClaimed', fields.totalClaimed));
    if (found) return found;
  }
  return undefined;
}

function uint128Problem(name: string, value: unknown): string | undefined {
  if (typeof value === 'string' && UINT128.test(value) && BigInt(value) <= MAX_UINT128) {
    return undefined;
  }
  return `${name}\` must be an integer string below 2^128, got \`${JSON.stringify(value) ?? 'nothing'}\``;
}

/** `check()` when `fields[name]` is present. */
function optional(
  fields: Record<string, unknown>,
  name: string,
  check: (value: unknown) => string | undefined,
): string | undefined {
  return fields[name] === undefined ? undefined : check(fields[name]);
}

/** `fields[name]` when it is a plain object. */
function objectField(
  fields: Record<string, unknown>,
  name: string,
): Record<string, unknown> | undefined {
  const value = fields[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function prefixed(prefix: string, found: string | undefined): string | undefined {
  return found && `${prefix}${found}`;
}

/** `name` must be a string matching `pattern`; the rest of a message when it is not. */
function fieldProblem(
  fields: Record<string, unknown>,
  name: string,
  pattern: RegExp,
  expected: string,
): string | undefined {
  const value = fields[name];
  if (typeof value === 'string' && pattern.test(value)) return undefined;
  return `${name}\` must be ${expected}, got \`${JSON.stringify(value) ?? 'nothing'}\``;
}

function zodSummary(error: { issues: { path: (string | number)[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

function problem(reason: RequestProblem['reason'], message: string): ParsedRequest {
  return { ok: false, problem: { reason, message } };
}
