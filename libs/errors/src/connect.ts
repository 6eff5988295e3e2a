import { create, type DescMessage } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  BadRequest_FieldViolationSchema,
  BadRequestSchema,
  ErrorInfoSchema,
  type BadRequest_FieldViolation,
} from "@gatehouse/proto";
import { errorTable, isReason, reasonForCode, type Reason } from "./table.ts";

export const ERROR_DOMAIN = "gatehouse.dev";

export interface Violation {
  /** Dotted path of the public JSON contract, e.g. `entrypoints.0.fields.1.key`. */
  field: string;
  /** Item code (lower snake case), e.g. `required`. */
  code: string;
  /** Developer-facing description in English. */
  description?: string;
}

/** A typed detail an error carries besides ErrorInfo and BadRequest (what the answer shows, e.g. a 428's methods). */
export interface ErrorDetail {
  desc: DescMessage;
  value: object;
}

/** A coded domain error: the reason's Connect code, ErrorInfo, optional field violations and typed details. */
export function domainError(
  reason: Reason,
  description?: string,
  options: { violations?: Violation[]; metadata?: Record<string, string>; details?: ErrorDetail[] } = {},
): ConnectError {
  const details: ErrorDetail[] = [
    { desc: ErrorInfoSchema, value: { reason, domain: ERROR_DOMAIN, metadata: options.metadata ?? {} } },
  ];
  if (options.violations?.length) {
    details.push({
      desc: BadRequestSchema,
      value: {
        fieldViolations: options.violations.map((v) =>
          create(BadRequest_FieldViolationSchema, {
            field: v.field,
            reason: v.code.toUpperCase(),
            description: v.description ?? v.code,
          }),
        ),
      },
    });
  }
  details.push(...(options.details ?? []));
  return new ConnectError(
    description ?? errorTable[reason].message.en,
    errorTable[reason].connect,
    undefined,
    details as never,
  );
}

export function validationError(violations: Violation[]): ConnectError {
  return domainError("VALIDATION_FAILED", "validation failed", { violations });
}

export interface ErrorFacts {
  reason: Reason;
  code: Code;
  message: string;
  violations: Violation[];
  metadata: Record<string, string>;
}

/** Reads reason, violations and metadata back from any error (ours, Connect's, or anything thrown). */
export function errorFacts(err: unknown): ErrorFacts {
  const ce = ConnectError.from(err);
  const info = ce.findDetails(ErrorInfoSchema).find((i) => i.domain === ERROR_DOMAIN);
  const reason: Reason = info && isReason(info.reason) ? info.reason : reasonForCode[ce.code];
  const violations = ce
    .findDetails(BadRequestSchema)
    .flatMap((b) => b.fieldViolations)
    .map((v: BadRequest_FieldViolation) => ({
      field: v.field,
      code: (v.reason || "invalid_value").toLowerCase(),
      description: v.description,
    }));
  return { reason, code: ce.code, message: ce.rawMessage, violations, metadata: info?.metadata ?? {} };
}

export { Code, ConnectError };
