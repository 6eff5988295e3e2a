import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { en, type Key } from "./en.ts";
import { es } from "./es.ts";
import { currentLanguage, setLanguage, type Language } from "./language.ts";

const TEXTS: Record<Language, Record<Key, string>> = { en, es };

/** A text with `{0}`, `{1}`… replaced by the arguments. */
export function translate(lang: Language, key: Key, ...args: (string | number)[]): string {
  return TEXTS[lang][key].replace(/\{(\d)\}/g, (m, i: string) =>
    args[Number(i)] === undefined ? m : String(args[Number(i)]),
  );
}

interface I18n {
  lang: Language;
  t: (key: Key, ...args: (string | number)[]) => string;
  setLang: (lang: Language) => void;
  /** A date and time in the console's language (— when absent). */
  when: (iso: string | null | undefined) => string;
}

const Ctx = createContext<I18n | undefined>(undefined);

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [lang, set] = useState<Language>(initial ?? currentLanguage());
  const setLang = useCallback((l: Language) => {
    setLanguage(l);
    set(l);
  }, []);
  const value = useMemo<I18n>(() => {
    const dates = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    return {
      lang,
      setLang,
      t: (key, ...args) => translate(lang, key, ...args),
      when: (iso) => (iso ? dates.format(new Date(iso)) : "—"),
    };
  }, [lang, setLang]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error("useI18n outside I18nProvider");
  return v;
}

export type { Key, Language };
