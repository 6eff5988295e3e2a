import type { Locale } from "@gatehouse/errors";

/** The texts of the console's page while its build is missing (en, es). */
export const CONSOLE_TEXTS: Record<Locale, { title: string; text: string }> = {
  en: {
    title: "The console is not built yet",
    text: "The administration console is a web application built to static files. Build it once with the command npm run build:console (npm start builds it by itself when it is missing or older than its sources), then reload this page.",
  },
  es: {
    title: "La consola aún no está compilada",
    text: "La consola de administración es una aplicación web compilada a ficheros estáticos. Compílala una vez con la orden npm run build:console (npm start la compila solo cuando falta o es más antigua que sus fuentes) y vuelve a cargar esta página.",
  },
};
