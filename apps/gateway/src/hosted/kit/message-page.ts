import type { Locale } from "@gatehouse/errors";
import { renderMessage } from "./render.ts";

/** A page with a heading, a message and optional links (errors, sign-out, interruptions), in the hosted pages' layout. */
export function messagePage(
  lang: Locale,
  title: string,
  text: string,
  links: { href: string; label: string }[] = [],
  appName?: string,
): string {
  return renderMessage({ lang, title, text, links, ...(appName ? { appName } : {}) });
}
