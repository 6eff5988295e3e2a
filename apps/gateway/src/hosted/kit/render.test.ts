import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { codeField } from "./form-model.ts";
import { renderForm, renderMessage } from "./render.ts";
import { HOSTED_CSS, HOSTED_CSS_HASH } from "./styles.ts";

const evil = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;

describe("hosted page templates", () => {
  it("escape every value: the application's name, labels, values, hidden inputs, links, alerts", () => {
    const html = renderForm({
      lang: "en",
      appName: evil,
      title: evil,
      lead: evil,
      leadTo: evil,
      alert: { text: evil, items: [{ id: "code", text: evil }] },
      action: "authorize",
      hidden: [{ name: "flow_token", value: evil }],
      fields: [{ ...codeField("en"), label: evil, value: evil, error: evil }],
      primary: { label: evil },
      secondary: { label: evil, name: "send_code" },
      foot: [{ text: evil, href: `javascript:${evil}`, label: evil }],
    });
    expect(html).not.toMatch(/<script|<img|onerror=alert\(2\)>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(renderMessage({ lang: "es", title: evil, text: evil, links: [{ href: evil, label: evil }] })).not.toContain(
      "<script",
    );
  });

  it("inline only the stylesheet the CSP allows by hash; no script; the page's language", () => {
    const html = renderMessage({ lang: "es", title: "Hola", text: "Texto" });
    expect(html).toContain('<html lang="es">');
    expect(html).toContain(`<style>${HOSTED_CSS}</style>`);
    expect(createHash("sha256").update(HOSTED_CSS).digest("base64")).toBe(HOSTED_CSS_HASH);
    expect(html).not.toContain("<script");
  });

  it("one heading; errors tied to their input; the first input in error gets the focus", () => {
    const html = renderForm({
      lang: "en",
      title: "Title",
      action: "authorize",
      hidden: [],
      fields: [codeField("en"), { ...codeField("en"), name: "other", id: "other", error: "Wrong" }],
      primary: { label: "Go" },
    });
    expect(html.match(/<h[1-6]/g)).toEqual(["<h1"]);
    expect(html).toMatch(
      /<input [^>]*id="other"[^>]*aria-describedby="other-error"[^>]*aria-invalid="true" autofocus>/,
    );
    expect(html).toMatch(/<p class="error" id="other-error">Wrong<\/p>/);
    expect(html.match(/autofocus/g)).toHaveLength(1);
  });
});
