import { describe, expect, it } from "vitest";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { translate } from "./index.tsx";
import { detectLanguage } from "./language.ts";

const placeholders = (s: string) => (s.match(/\{\d\}/g) ?? []).sort();

describe("the console's texts", () => {
  it("Spanish has every English text, with the same placeholders", () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(en)) {
      expect(es[k as keyof typeof en].trim(), k).not.toBe("");
      expect(placeholders(es[k as keyof typeof en]), k).toEqual(placeholders(v));
    }
  });

  it("fills placeholders", () => {
    expect(translate("en", "catalogs.inUse", "default")).toBe(
      "“default” is still used by an application, an entry point or a legal assertion, so it cannot be deleted.",
    );
    expect(translate("es", "user.deleted.ok", 42)).toBe("Usuario 42 eliminado.");
  });

  it("follows the operator's choice, else the browser's first supported language, else English", () => {
    expect(detectLanguage("es", ["en-US"])).toBe("es");
    expect(detectLanguage(null, ["fr-FR", "es-MX", "en"])).toBe("es");
    expect(detectLanguage("de", ["en-GB"])).toBe("en");
    expect(detectLanguage(null, ["fr"])).toBe("en");
  });
});
