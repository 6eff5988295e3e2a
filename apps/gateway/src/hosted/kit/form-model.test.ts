import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EntrypointSchema, FieldConfigSchema, type FieldConfig } from "@gatehouse/proto";
import { inputOf, withErrors } from "./field-errors.ts";
import {
  fieldsFor,
  inputTypeOf,
  isTwoStep,
  loginForm,
  loginIdKey,
  registrationForm,
  secondStepForm,
  type Formats,
} from "./form-model.ts";

type Init = Partial<Omit<FieldConfig, "$typeName" | "$unknown">>;
const id = (key: string, extra: Init = {}) =>
  create(FieldConfigSchema, {
    objectType: "fieldConfig",
    type: "id",
    key,
    main: false,
    mandatory: false,
    requiresConfirmation: false,
    ...extra,
  });
const data = (key: string, extra: Init = {}) =>
  create(FieldConfigSchema, { objectType: "fieldConfig", type: "field", key, ...extra });
const entrypoint = (fields: FieldConfig[], flags: { passwordless?: boolean; assisted?: boolean } = {}) =>
  create(EntrypointSchema, { id: "1_web", objectType: "entrypoint", displayName: "Web", key: "web", fields, ...flags });

// The operator's catalog: the shipped fields plus custom ones with each format.
const formats: Formats = new Map([
  ["name", { format: "text", displayName: "Name" }],
  ["birthday", { format: "date", displayName: "Birthday (YYYY-MM-DD)" }],
  ["work_email", { format: "email", displayName: "Work email" }],
  ["office_phone", { format: "phone", displayName: "Office phone" }],
  ["shoe_size", { format: "number", displayName: "Shoe size" }],
  ["newsletter_ok", { format: "boolean", displayName: "Newsletter" }],
  ["team", { format: "string", displayName: "Team" }],
]);

describe("the form model of an entry point", () => {
  const web = entrypoint([
    id("email", { main: true, mandatory: true, requiresConfirmation: true }),
    id("phone_number"),
    data("name"),
    data("birthday", { mandatory: false }),
    data("work_email", { mandatory: false }),
    data("office_phone", { mandatory: false }),
    data("shoe_size", { mandatory: false }),
    data("newsletter_ok", { mandatory: false }),
    data("team", { mandatory: false }),
  ]);

  it("one input per field, in the entry point's order, named by key, required when mandatory (data fields by default), typed by key or catalog format", () => {
    const { fields, step } = registrationForm(web, { lang: "en", formats, assertions: [] });
    expect(step).toBeUndefined();
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["email", "email", true],
      ["phone_number", "tel", false],
      ["name", "text", true],
      ["birthday", "date", false],
      ["work_email", "email", false],
      ["office_phone", "tel", false],
      ["shoe_size", "number", false],
      ["newsletter_ok", "checkbox", false],
      ["team", "text", false],
      ["password", "password", true],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.email).toMatchObject({ id: "email", label: "Email", autocomplete: "email", inputmode: "email" });
    expect(byName.birthday).toMatchObject({ label: "Date of birth", autocomplete: "bday" });
    // Unknown to our label table: the catalog's name.
    expect(byName.shoe_size).toMatchObject({ label: "Shoe size", inputmode: "decimal" });
    expect(byName.password).toMatchObject({ autocomplete: "new-password", hint: "At least 8 characters." });
  });

  it("labels follow the language; a checkbox per mandatory legal assertion comes last", () => {
    const { fields } = registrationForm(web, {
      lang: "es",
      formats,
      assertions: [{ key: "tos", label: "Acepto las condiciones" }],
    });
    expect(fields.slice(0, 3).map((f) => f.label)).toEqual(["Correo electrónico", "Teléfono móvil", "Nombre"]);
    expect(fields.at(-1)).toMatchObject({
      name: "assertion.tos",
      id: "assertion-tos",
      type: "checkbox",
      required: true,
      label: "Acepto las condiciones",
      checked: false,
    });
  });

  it("no password input for a passwordless entry point; values are kept, never the password", () => {
    const nopass = entrypoint([id("email", { main: true, mandatory: true }), data("name")], { passwordless: true });
    const { fields } = registrationForm(nopass, {
      lang: "en",
      formats,
      assertions: [{ key: "tos", label: "ToS" }],
      values: { email: "a@b.co", name: "Ana", password: "secret", "assertion.tos": "true" },
    });
    expect(fields.map((f) => f.name)).toEqual(["email", "name", "assertion.tos"]);
    expect(fields.map((f) => f.value)).toEqual(["a@b.co", "Ana", "true"]);
    expect(fields.at(-1)!.checked).toBe(true);
    const withPassword = registrationForm(web, { lang: "en", formats, assertions: [], values: { password: "secret" } });
    expect(withPassword.fields.find((f) => f.name === "password")!.value).toBe("");
  });

  it("a two-step entry point: step 1 first (ids always there), step 2 fields on the second page, mandatory ones required", () => {
    const steps = entrypoint([
      id("email", { main: true, mandatory: true }),
      data("name"),
      data("birthday", { step: 2 }),
      data("team", { step: 2, mandatory: false }),
    ]);
    expect(isTwoStep(steps)).toBe(true);
    expect(isTwoStep(web)).toBe(false);
    const first = registrationForm(steps, { lang: "en", formats, assertions: [] });
    expect(first.step).toBe(1);
    expect(first.fields.map((f) => f.name)).toEqual(["email", "name", "password"]);
    expect(secondStepForm(steps, { lang: "en", formats }).map((f) => [f.name, f.required])).toEqual([
      ["birthday", true],
      ["team", false],
    ]);
  });

  it("the login form: the main identifier (email, or the phone) and the current password unless passwordless", () => {
    expect(loginForm(web, "en").map((f) => [f.name, f.type, f.autocomplete])).toEqual([
      ["email", "email", "username"],
      ["password", "password", "current-password"],
    ]);
    const phone = entrypoint(
      [id("phone_number", { main: true, mandatory: true, requiresConfirmation: true }), id("email")],
      { passwordless: true },
    );
    expect(loginIdKey(phone)).toBe("phone_number");
    expect(loginForm(phone, "es", "+34600").map((f) => [f.name, f.type, f.label, f.value])).toEqual([
      ["phone_number", "tel", "Teléfono móvil", "+34600"],
    ]);
    expect(loginIdKey(entrypoint([id("national_id", { main: true, mandatory: true }), id("phone_number")]))).toBe(
      "phone_number",
    );
  });

  it("named fields (missing data, useForValidation values) in the entry point's order, all required", () => {
    expect(fieldsFor(web, ["birthday", "name"], { lang: "en", formats }).map((f) => [f.name, f.required])).toEqual([
      ["name", true],
      ["birthday", true],
    ]);
  });

  it("places each violation next to its input, localized; the others come back", () => {
    const { fields } = registrationForm(web, { lang: "es", formats, assertions: [{ key: "tos", label: "ToS" }] });
    const violations = [
      { field: "object.ids.email.value", code: "duplicate" },
      { field: "object.ids.email.value", code: "invalid_format" },
      { field: "object.datas.birthday.value", code: "invalid_format" },
      { field: "object.password", code: "too_short" },
      { field: "object.assertions.tos", code: "required" },
      { field: "object.addresses.home", code: "invalid_type" },
    ];
    const { fields: marked, unplaced } = withErrors(fields, violations, "es");
    const errors = Object.fromEntries(marked.filter((f) => f.error).map((f) => [f.name, f.error]));
    expect(errors).toEqual({
      email: "Ya existe una cuenta con este correo. Inicia sesión.",
      birthday: "Escribe una fecha real.",
      password: "Usa al menos 8 caracteres.",
      "assertion.tos": "Debes aceptarlo para continuar.",
    });
    expect(unplaced).toEqual([{ field: "object.addresses.home", code: "invalid_type" }]);
    expect(inputOf("object.datas.name")).toBe("name");
    expect(inputOf("password")).toBe("password");
  });

  it("input types: the key wins, then the catalog format, else text", () => {
    expect(inputTypeOf("birthday")).toBe("date");
    expect(inputTypeOf("email", "text")).toBe("email");
    expect(inputTypeOf("custom", "phone")).toBe("tel");
    expect(inputTypeOf("custom", "string")).toBe("text");
    expect(inputTypeOf("custom")).toBe("text");
  });

  it("a shipped key that is plain text takes its catalog format when the operator gives it one (the format says so)", () => {
    expect(inputTypeOf("nickname", "email")).toBe("email");
    expect(inputTypeOf("postal_code", "number")).toBe("number");
    expect(inputTypeOf("gender", "text")).toBe("text");
    expect(inputTypeOf("birthday", "text")).toBe("date");
    const ep = entrypoint([id("email", { main: true, mandatory: true, requiresConfirmation: true }), data("nickname")]);
    const typed: Formats = new Map([["nickname", { format: "date", displayName: "Anniversary" }]]);
    const nickname = registrationForm(ep, { lang: "en", formats: typed, assertions: [] }).fields.find(
      (f) => f.name === "nickname",
    )!;
    expect(nickname).toMatchObject({ type: "date" });
    expect(nickname.autocomplete).toBeUndefined();
  });
});
