import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { domainError, errorEnvelope, errorFacts, errorTable, pickLocale, validationError } from "./index.ts";

describe("error table", () => {
  it("carries reason and violations through a Connect error", () => {
    const err = validationError([{ field: "entrypoints.0.fields.1.key", code: "required" }]);
    expect(err.code).toBe(Code.InvalidArgument);
    const facts = errorFacts(err);
    expect(facts.reason).toBe("VALIDATION_FAILED");
    expect(facts.violations).toEqual([
      { field: "entrypoints.0.fields.1.key", code: "required", description: "required" },
    ]);
  });
  it("survives the wire format (details are serialized)", () => {
    const err = domainError("APPLICATION_NOT_FOUND", "no such app", { metadata: { client_id: "1" } });
    // Round-trip through the Connect wire representation of details.
    const wire = err.details.map((d) =>
      "desc" in d ? { type: d.desc.typeName, value: toBinary(d.desc, create(d.desc, d.value as never)) } : d,
    );
    const back = new ConnectError(err.rawMessage, err.code, undefined, wire as never);
    expect(errorFacts(back).reason).toBe("APPLICATION_NOT_FOUND");
    expect(errorFacts(back).metadata).toEqual({ client_id: "1" });
  });
  it("falls back on the Connect code for foreign errors", () => {
    expect(errorFacts(new ConnectError("x", Code.Unauthenticated)).reason).toBe("UNAUTHENTICATED");
    expect(errorFacts(new Error("boom")).reason).toBe("INTERNAL");
  });
  it("builds the localized envelope with sc cutting items to one", () => {
    const violations = [
      { field: "a", code: "required" },
      { field: "b", code: "invalid_type" },
    ];
    const es = errorEnvelope({ reason: "VALIDATION_FAILED", locale: "es", elapsed: 3, violations });
    expect(es.result).toEqual({ status: 400, elapsed: 3 });
    expect(es.errors.code).toBe("validation_failed");
    expect(es.errors.message).toBe(errorTable.VALIDATION_FAILED.message.es);
    expect(es.errors.items).toHaveLength(2);
    expect(es.errors.items[0]).toEqual({ field: "a", code: "required", message: "Este campo es obligatorio." });
    const one = errorEnvelope({ reason: "VALIDATION_FAILED", locale: "en", elapsed: 0, violations, singleItem: true });
    expect(one.errors.items).toHaveLength(1);
  });
  it("names the refusals the contract names by code when they are the only problem (sections 11 and 17)", () => {
    const code = (
      violations: { field: string; code: string }[],
      reason: "VALIDATION_FAILED" | "CONSTRAINT_VIOLATION",
    ) => errorEnvelope({ reason, locale: "en", elapsed: 0, violations }).errors.code;
    expect(code([{ field: "issuer", code: "invalid_value" }], "VALIDATION_FAILED")).toBe("invalid_value");
    expect(code([{ field: "object.ids.phone_number.value", code: "invalid_value" }], "VALIDATION_FAILED")).toBe(
      "invalid_value",
    );
    expect(code([{ field: "object.ids.phone_number.value", code: "invalid_value" }], "CONSTRAINT_VIOLATION")).toBe(
      "invalid_value",
    );
    expect(code([{ field: "newPassword", code: "password_weak" }], "CONSTRAINT_VIOLATION")).toBe("password_weak");
    // Any other field, or another problem beside it, stays a validation failure with its items.
    expect(code([{ field: "preset", code: "invalid_value" }], "VALIDATION_FAILED")).toBe("validation_failed");
    expect(
      code(
        [
          { field: "issuer", code: "invalid_value" },
          { field: "clientId", code: "required" },
        ],
        "VALIDATION_FAILED",
      ),
    ).toBe("validation_failed");
  });
  it("picks the locale from Accept-Language", () => {
    expect(pickLocale(undefined)).toBe("en");
    expect(pickLocale("es-ES,es;q=0.9,en;q=0.8")).toBe("es");
    expect(pickLocale("fr-FR, es;q=0.5")).toBe("es");
    expect(pickLocale("de")).toBe("en");
    expect(pickLocale("en;q=0.1, es;q=0.9")).toBe("es");
  });
});
