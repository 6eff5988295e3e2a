// The console's language: the operator's choice (localStorage), else the
// browser's first supported language, else English.

export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = "gatehouse.console.lang";

const supported = (l: string | null | undefined): Language | undefined => {
  const base = l?.toLowerCase().split("-")[0];
  return LANGUAGES.find((x) => x === base);
};

/** The first supported language of the stored choice or the browser's list. */
export function detectLanguage(stored: string | null, browser: readonly string[]): Language {
  return supported(stored) ?? browser.map(supported).find(Boolean) ?? "en";
}

let current: Language =
  typeof window === "undefined"
    ? "en"
    : detectLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages ?? [navigator.language]);

export const currentLanguage = () => current;

export function setLanguage(lang: Language): void {
  current = lang;
  localStorage.setItem(LANGUAGE_KEY, lang);
  document.documentElement.lang = lang;
}
