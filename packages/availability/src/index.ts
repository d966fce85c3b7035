export { classifyAvailability } from './classify-availability.js';
export { receiptRule, resultSchema } from './product.js';
export { AVAILABILITY_ERROR_REASONS, AVAILABILITY_RUBRIC, type ErrorReasonRow } from './rubric.js';
export type {
  AvailabilityData,
  AvailabilityErrorCode,
  AvailabilityOptions,
  AvailabilityReason,
  ProbeFailure,
  ProbeOutcome,
  ProbeSuccess,
  ProbeTiming,
  ResponseClass,
} from './types.js';
