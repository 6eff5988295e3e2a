import type { CatalogItem, Entrypoint, FieldConfig, IdentityProvider } from "../../api/types.ts";
import type { Language } from "../../i18n/language.ts";

// An entry point's field configuration as the registration form it becomes
// on the hosted pages (contract section 8): one input per field in order,
// identifiers always in step 1, data fields in their step, a password unless
// the entry point is passwordless. Mirrors the gateway's hosted form model.

export const ID_KEYS = ["email", "phone_number", "national_id", "screen_name"] as const;

const ID_LABELS: Record<Language, Record<string, string>> = {
  en: { email: "Email", phone_number: "Mobile phone", national_id: "National id", screen_name: "Screen name" },
  es: {
    email: "Correo electrónico",
    phone_number: "Teléfono móvil",
    national_id: "Documento de identidad",
    screen_name: "Nombre de usuario",
  },
};

const BY_KEY: Record<string, string> = { email: "email", phone_number: "tel", birthday: "date" };
const BY_FORMAT: Record<string, string> = {
  date: "date",
  email: "email",
  phone: "tel",
  number: "number",
  boolean: "checkbox",
};

export interface PreviewInput {
  key: string;
  label: string;
  type: string;
  required: boolean;
  /** Asked again as a check when the consumer uses the email button (two-step entry points). */
  validation?: boolean;
  confirmation?: boolean;
}

export type Formats = ReadonlyMap<string, { displayName: string; format?: string }>;

/** What an entry point is made from: the catalogs its fields and typologies are chosen from (with the labels and formats its form takes from them) and the identity providers it may offer. */
export interface Catalogs {
  formats: Formats;
  fields: CatalogItem[];
  typologies: CatalogItem[];
  providers: IdentityProvider[];
}

export const isMandatory = (f: FieldConfig) => (f.type === "id" ? Boolean(f.mandatory) : (f.mandatory ?? true));
export const stepOf = (f: FieldConfig) => (f.type === "id" ? 1 : Math.max(1, f.step ?? 1));

/** The inputs of each step of the entry point's registration form. */
export function previewOf(
  ep: Pick<Entrypoint, "fields" | "passwordless">,
  formats: Formats,
  lang: Language,
  passwordLabel: string,
): PreviewInput[][] {
  const steps: PreviewInput[][] = [[], []];
  for (const f of ep.fields) {
    if (!f.key) continue;
    const catalog = formats.get(f.key);
    const label = f.type === "id" ? (ID_LABELS[lang][f.key] ?? f.key) : catalog?.displayName || f.key;
    const input: PreviewInput = {
      key: f.key,
      label,
      type: BY_KEY[f.key] ?? BY_FORMAT[catalog?.format ?? ""] ?? "text",
      required: isMandatory(f),
      ...(f.useForValidation ? { validation: true } : {}),
      ...(f.type === "id" && f.requiresConfirmation ? { confirmation: true } : {}),
    };
    steps[stepOf(f) === 2 ? 1 : 0]!.push(input);
  }
  if (!ep.passwordless) steps[0]!.push({ key: "password", label: passwordLabel, type: "password", required: true });
  return steps[1]!.length ? steps : [steps[0]!];
}
