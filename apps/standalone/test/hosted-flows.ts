import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TestStack } from "./stack-helpers.ts";
import { newTypology, published } from "./terms-flows.ts";
import { createApp, type FlowApp } from "./user-flows.ts";

// The hosted entry-point pages (contract section 8) through a stack: an
// application whose entry points cover every kind of form, messages read
// from the outbox, and optional screenshots (HOSTED_SCREENSHOTS=<dir>).

const id = (key: string, main = false, confirm = false, mandatory = main) => ({
  objectType: "fieldConfig",
  type: "id",
  key,
  main,
  mandatory,
  requiresConfirmation: confirm,
});
const data = (key: string, extra: Record<string, unknown> = {}) => ({
  objectType: "fieldConfig",
  type: "field",
  key,
  ...extra,
});

/** The entry points of the hosted-pages application, by key. */
export const ENTRYPOINTS: Record<string, Record<string, unknown>> = {
  // One step: email to confirm, optional phone, a name; a password.
  shop: { fields: [id("email", true, true), id("phone_number"), data("name"), data("surname", { mandatory: false })] },
  // Two steps: the birthday (mandatory) and gender on the second page.
  steps: {
    fields: [
      id("email", true, true),
      data("name"),
      data("birthday", { step: 2 }),
      data("gender", { step: 2, mandatory: false }),
    ],
  },
  // No password: codes only.
  nopass: { passwordless: true, fields: [id("email", true, true), data("name")] },
  // The application registers the users; they activate by link.
  assisted: { assisted: true, fields: [id("email", true, true), data("name")] },
  // Code sign-in repeats the name given at registration.
  checked: { fields: [id("email", true, false), data("name", { useForValidation: true })] },
  // The phone is the main id.
  mobile: { passwordless: true, fields: [id("phone_number", true, true), data("name", { mandatory: false })] },
};

export interface HostedApp extends FlowApp {
  /** Entry point ids by key. */
  eps: Record<string, string>;
  typology: string;
  /** The mandatory legal assertion of the application's typology. */
  terms: string;
}

/** An application with every kind of entry point, of its own typology, with a mandatory assertion published. */
export async function hostedApp(s: TestStack, redirectUris: string[]): Promise<HostedApp> {
  const typology = await newTypology(s);
  const app = await createApp(s, `h${Date.now().toString(36)}`, (body) => {
    body.displayName = "Northwind Outfitters";
    body.redirectUris = redirectUris;
    body.entrypoints = Object.entries(ENTRYPOINTS).map(([key, ep]) => ({
      objectType: "entrypoint",
      displayName: `Northwind ${key}`,
      key,
      typology: { register: { objectType: "typology", id: typology }, work: { objectType: "typology", id: typology } },
      ...ep,
    }));
  });
  const terms = `tos${typology}`;
  await published(s, {
    key: terms,
    displayName: {
      en: "I accept the Terms of Service and the Privacy Policy",
      es: "Acepto las Condiciones del servicio y la Política de privacidad",
    },
    type: "terms",
    typology,
    mandatory: true,
    version: "1",
  });
  const eps = Object.fromEntries(Object.keys(ENTRYPOINTS).map((k) => [k, `${app.id}_${k}`]));
  return { ...app, eps, typology, terms };
}

interface OutboxMessage {
  to: string;
  code: string;
  subject: string;
  text: string;
  link?: string;
  createdAt: string;
}

/** The latest message of the outbox to `to` whose subject or text matches, waiting for it (messages go out after the answer). */
export async function outboxMessage(s: TestStack, to: string, match: RegExp, after = 0): Promise<OutboxMessage> {
  const dir = join(s.config.dataDir, "outbox");
  for (let i = 0; i < 200; i++) {
    const found: OutboxMessage[] = [];
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith(".json")) continue;
      const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as OutboxMessage;
      if (msg.to === to && Date.parse(msg.createdAt) >= after && (match.test(msg.subject) || match.test(msg.text)))
        found.push(msg);
    }
    if (found.length) return found.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)).at(-1)!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no message to ${to} matching ${match}`);
}

/** Saves a screenshot of the page when HOSTED_SCREENSHOTS names a folder (docs and visual review). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.HOSTED_SCREENSHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  // On a phone the page is the sheet itself: its content only; on a desktop the card on its background.
  const phone = (page.viewportSize()?.width ?? 0) < 480;
  if (phone) await page.locator("main").screenshot({ path: join(dir, `${name}.png`) });
  else await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
