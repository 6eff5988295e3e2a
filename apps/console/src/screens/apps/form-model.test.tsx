import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FieldConfig } from "../../api/types.ts";
import { I18nProvider } from "../../i18n/index.tsx";
import { FormPreview } from "./FormPreview.tsx";
import { previewOf } from "./form-model.ts";

const id = (key: string, extra: Partial<FieldConfig> = {}): FieldConfig => ({
  objectType: "fieldConfig",
  type: "id",
  key,
  main: false,
  mandatory: false,
  requiresConfirmation: false,
  ...extra,
});
const field = (key: string, extra: Partial<FieldConfig> = {}): FieldConfig => ({
  objectType: "fieldConfig",
  type: "field",
  key,
  ...extra,
});
const formats = new Map([
  ["birthday", { displayName: "Birthday", format: "date" }],
  ["newsletter", { displayName: "Newsletter", format: "boolean" }],
]);

describe("an entry point's fields as the form they become", () => {
  it("one input per field in order, identifiers in step 1, data fields in their step, a password unless passwordless", () => {
    const steps = previewOf(
      {
        fields: [
          id("email", { main: true, mandatory: true, requiresConfirmation: true }),
          field("name"),
          field("birthday", { mandatory: false, step: 2 }),
        ],
        passwordless: false,
      },
      formats,
      "en",
      "Password",
    );
    expect(steps.map((s) => s.map((i) => [i.key, i.type, i.required]))).toEqual([
      [
        ["email", "email", true],
        ["name", "text", true],
        ["password", "password", true],
      ],
      [["birthday", "date", false]],
    ]);
    expect(steps[0]![0]).toMatchObject({ label: "Email", confirmation: true });
  });

  it("a passwordless one-step entry point has no password and one step; catalog formats pick the input", () => {
    const steps = previewOf(
      {
        fields: [id("phone_number", { mandatory: true }), field("newsletter", { mandatory: false })],
        passwordless: true,
      },
      formats,
      "es",
      "Contraseña",
    );
    expect(steps).toEqual([
      [
        { key: "phone_number", label: "Teléfono móvil", type: "tel", required: true },
        { key: "newsletter", label: "Newsletter", type: "checkbox", required: false },
      ],
    ]);
  });

  it("renders inert inputs with their labels, mandatory ones marked, in the console's language", () => {
    const html = renderToStaticMarkup(
      <I18nProvider initial="es">
        <FormPreview
          ep={{
            displayName: "Alta web",
            passwordless: false,
            fields: [
              id("email", { main: true, mandatory: true, requiresConfirmation: true }),
              field("birthday", { step: 2 }),
            ],
          }}
          formats={formats}
        />
      </I18nProvider>,
    );
    expect(html).toContain("El formulario resultante");
    expect(html).toContain("Correo electrónico");
    expect(html).toContain('type="date"');
    expect(html).toContain("Paso 2");
    expect(html).toContain("Continuar");
    expect(html).toMatch(/<div class="preview-steps" inert="">/);
  });
});
