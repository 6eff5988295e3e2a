import type { Locale } from "@gatehouse/errors";

/** Labels of the contract's identifier keys and the shipped data fields (the catalog's names are English only). */
const LABELS: Record<Locale, Record<string, string>> = {
  en: {
    email: "Email",
    phone_number: "Mobile phone",
    national_id: "National ID number",
    screen_name: "Username",
    name: "First name",
    surname: "Last name",
    second_surname: "Second last name",
    birthday: "Date of birth",
    gender: "Gender",
    nickname: "Nickname",
    locale: "Language",
    country: "Country",
    postal_code: "Postal code",
    password: "Password",
    code: "Code",
  },
  es: {
    email: "Correo electrónico",
    phone_number: "Teléfono móvil",
    national_id: "Número de documento de identidad",
    screen_name: "Nombre de usuario",
    name: "Nombre",
    surname: "Primer apellido",
    second_surname: "Segundo apellido",
    birthday: "Fecha de nacimiento",
    gender: "Género",
    nickname: "Apodo",
    locale: "Idioma",
    country: "País",
    postal_code: "Código postal",
    password: "Contraseña",
    code: "Código",
  },
};

/** The label of a field key in the page's language; the catalog's display name, else the key, for others. */
export const labelOf = (lang: Locale, key: string, catalogName?: string) => LABELS[lang][key] ?? (catalogName || key);
