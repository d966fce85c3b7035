import type { x402Facilitator } from '@x402/core/facilitator';
import type { SettleResponse, VerifyResponse } from '@x402/core/types';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { normalizeSettleResponse, normalizeVerifyResponse, tidyMessage } from './reasons.js';
import { type FacilitatorRequest, parseFacilitatorRequest } from './request.js';

/** A request body larger than this is refused (413): a payment is well under 8 KiB. */
const MAX_BODY = '64kb';

/** Why a request gets `isValid: false` / `success: false` before the facilitator sees it. */
interface Problem {
  readonly reason: string;
  readonly message: string;
}

export interface FacilitatorAppOptions {
  /** Told of every unexpected failure (answered 500). Default: one line on stderr. */
  readonly onError?: (error: unknown, request: Request) => void;
}

/**
 * The facilitator HTTP API of the x402 specification (§7): `POST /verify`, `POST /settle`,
 * `GET /supported`, for x402 v1 and v2 bodies.
 *
 * Answers, always JSON:
 * - 200 with the facilitator's verdict, whether the payment is valid or not, settled or not
 *   (an on-chain revert is `success: false` with its reason);
 * - 200 `isValid/success: false` with `unsupported_scheme` or `invalid_network` for a
 *   well-formed payment this facilitator does not handle;
 * - 400 (413 for an oversized body) with `invalid_payload`, `invalid_payment_requirements` or
 *   `invalid_x402_version` for a malformed body;
 * - 500 with `unexpected_verify_error` / `unexpected_settle_error` when something failed
 *   that should not have (the chain stopped answering, a bug).
 *
 * The official HTTP facilitator client reads a 200 as the verdict and turns any other status
 * carrying `isValid`/`success` into a `VerifyError`/`SettleError` with that status.
 */
export function createFacilitatorApp(
  facilitator: x402Facilitator,
  options: FacilitatorAppOptions = {},
): Express {
  const onError = options.onError ?? logError;
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: MAX_BODY }));
  app.get('/supported', (_req, res) => {
    res.json(facilitator.getSupported());
  });
  app.post('/verify', verifyHandler(facilitator, onError));
  app.post('/settle', settleHandler(facilitator, onError));
  app.use(notFound);
  app.use(errorHandler(onError));
  return app;
}

function verifyHandler(
  facilitator: x402Facilitator,
  onError: NonNullable<FacilitatorAppOptions['onError']>,
): RequestHandler {
  return async function verify(req, res) {
    const parsed = parseFacilitatorRequest(req.body);
    if (!parsed.ok) return void res.status(400).json(verifyRefusal(parsed.problem));
    const { paymentPayload, paymentRequirements } = parsed.request;
    const unsupported = unsupportedReason(facilitator, parsed.request);
    if (unsupported) {
      return void res.json(verifyRefusal(unsupported, payerOf(parsed.request)));
    }
    let result: VerifyResponse;
    try {
      result = await facilitator.verify(paymentPayload, paymentRequirements);
    } catch (error) {
      onError(error, req);
      return void res.status(500).json({
        isValid: false,
        invalidReason: 'unexpected_verify_error',
        invalidMessage: messageOf(error),
        payer: payerOf(parsed.request),
      } satisfies VerifyResponse);
    }
    res.json(normalizeVerifyResponse(result));
  };
}

function settleHandler(
  facilitator: x402Facilitator,
  onError: NonNullable<FacilitatorAppOptions['onError']>,
): RequestHandler {
  return async function settle(req, res) {
    const parsed = parseFacilitatorRequest(req.body);
    if (!parsed.ok) return void res.status(400).json(settleRefusal(parsed.problem, req.body));
    const { paymentPayload, paymentRequirements } = parsed.request;
    const unsupported = unsupportedReason(facilitator, parsed.request);
    if (unsupported) {
      return void res.json(settleRefusal(unsupported, req.body, payerOf(parsed.request)));
    }
    let result: SettleResponse;
    try {
      result = await facilitator.settle(paymentPayload, paymentRequirements);
    } catch (error) {
      onError(error, req);
      return void res.status(500).json({
        success: false,
        errorReason: 'unexpected_settle_error',
        errorMessage: messageOf(error),
        payer: payerOf(parsed.request),
        transaction: '',
        network: paymentRequirements.network,
      } satisfies SettleResponse);
    }
    res.json(normalizeSettleResponse(result));
  };
}

/**
 * Whether the facilitator handles this version, scheme and network at all (it throws
 * otherwise); the x402 reason code when it does not.
 */
function unsupportedReason(
  facilitator: x402Facilitator,
  request: FacilitatorRequest,
): Problem | undefined {
  const { scheme, network } = request.paymentRequirements;
  const kinds = facilitator
    .getSupported()
    .kinds.filter((k) => k.x402Version === request.x402Version);
  if (!kinds.some((k) => k.scheme === scheme)) {
    return {
      reason: 'unsupported_scheme',
      message: `x402 v${request.x402Version} scheme \`${scheme}\` is not supported; see GET /supported`,
    };
  }
  if (!kinds.some((k) => k.scheme === scheme && k.network === network)) {
    return {
      reason: 'invalid_network',
      message: `x402 v${request.x402Version} network \`${network}\` is not supported here; see GET /supported`,
    };
  }
  return undefined;
}

function verifyRefusal(problem: Problem, payer?: string): VerifyResponse {
  return {
    isValid: false,
    invalidReason: problem.reason,
    invalidMessage: problem.message,
    ...(payer ? { payer } : {}),
  };
}

function settleRefusal(problem: Problem, body: unknown, payer?: string): SettleResponse {
  return {
    success: false,
    errorReason: problem.reason,
    errorMessage: problem.message,
    ...(payer ? { payer } : {}),
    transaction: '',
    network: networkOf(body),
  };
}

/** The network a (possibly malformed) body names, or `""`. */
function networkOf(body: unknown): SettleResponse['network'] {
  const network = (body as { paymentRequirements?: { network?: unknown } } | undefined)
    ?.paymentRequirements?.network;
  return (typeof network === 'string' ? network : '') as SettleResponse['network'];
}

/**
 * The payer a payload names: `authorization.from` (EIP-3009, `exact`) or
 * `permit2Authorization.from` (Permit2, `upto`); `""` for a scheme not served here.
 */
function payerOf(request: FacilitatorRequest): string {
  const payload = request.paymentPayload.payload as {
    authorization?: { from?: unknown };
    permit2Authorization?: { from?: unknown };
  };
  const from = payload.authorization?.from ?? payload.permit2Authorization?.from;
  return typeof from === 'string' ? from : '';
}

function notFound(req: Request, res: Response): void {
  res.status(404).json({
    error: 'not_found',
    message: `no route ${req.method} ${req.path}; the facilitator serves POST /verify, POST /settle, GET /supported`,
  });
}

/**
 * The one error handler. body-parser's errors carry `type` and a 4xx `status` (malformed
 * JSON, a body over the limit, an unknown charset): the caller's, answered with that status
 * and `invalid_payload`. Anything else is unexpected: 500. Always JSON, never an HTML page.
 */
function errorHandler(onError: NonNullable<FacilitatorAppOptions['onError']>): ErrorRequestHandler {
  return function handleError(error, req, res, _next) {
    const { type, status } = error as { type?: unknown; status?: unknown };
    const fromBodyParser = typeof type === 'string' && typeof status === 'number' && status < 500;
    if (!fromBodyParser) onError(error, req);
    const answerStatus = fromBodyParser ? status : 500;
    const problem: Problem = fromBodyParser
      ? { reason: 'invalid_payload', message: `the body was refused: ${messageOf(error)}` }
      : {
          reason: req.path === '/settle' ? 'unexpected_settle_error' : 'unexpected_verify_error',
          message: 'unexpected error',
        };
    if (req.path === '/settle')
      return void res.status(answerStatus).json(settleRefusal(problem, undefined));
    if (req.path === '/verify') return void res.status(answerStatus).json(verifyRefusal(problem));
    res.status(answerStatus).json({ error: problem.reason, message: problem.message });
  };
}

function messageOf(error: unknown): string {
  return tidyMessage(error instanceof Error ? error.message : String(error));
}

function logError(error: unknown, req: Request): void {
  console.error(`facilitator: ${req.method} ${req.path} failed: ${messageOf(error)}`);
}
