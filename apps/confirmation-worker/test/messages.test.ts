import { describe, expect, it } from "vitest";
import { activationLink, buildMessage, confirmationLink, emailMessage, messageIdFor, smsText } from "../src/index.ts";
import { makeJob, testKeys } from "./helpers.ts";

describe("confirmation messages", () => {
  it("builds the contract's link, escaping the token", () => {
    expect(confirmationLink("https://id.example.com/", "a+b/c")).toBe(
      "https://id.example.com/activityid/v1/user/confirm?token=a%2Bb%2Fc",
    );
  });

  it("words each purpose in en and es, with the code and the link", () => {
    for (const locale of ["en", "es"] as const) {
      const subjects = new Set<string>();
      for (const purpose of ["register", "change", "resend"] as const) {
        const m = emailMessage(locale, purpose, "482913", "https://x/l");
        subjects.add(m.subject);
        expect(m.text).toContain("482913");
        expect(m.text).toContain("https://x/l");
      }
      expect(subjects.size).toBe(3);
    }
    expect(emailMessage("es", "change", "1", "l").subject).toBe("Confirma tus nuevos datos de contacto");
    expect(smsText("en", "482913")).toBe("Your confirmation code is 482913");
    expect(smsText("es", "482913")).toBe("Tu código de confirmación es 482913");
  });

  it("gives SMS the code without the link, email both", () => {
    const keys = testKeys();
    const sms = buildMessage(makeJob(keys, { channel: "sms" }).job, { code: "111222", linkToken: "t" }, "https://b");
    expect(sms.link).toBeUndefined();
    expect(sms.text).not.toContain("https://b");
    const email = buildMessage(makeJob(keys).job, { code: "111222", linkToken: "t" }, "https://b");
    expect(email.link).toBe("https://b/activityid/v1/user/confirm?token=t");
  });

  it("words sign-in codes (code only) and activations (the activation link, no code) in en and es, by email and SMS", () => {
    const keys = testKeys();
    expect(activationLink("https://id.example.com/", "a+b")).toBe(
      "https://id.example.com/activityid/v1/user/activate?token=a%2Bb",
    );
    for (const locale of ["en", "es"] as const) {
      const code = buildMessage(
        makeJob(keys, { locale, purpose: "access_code" }).job,
        { code: "482913", linkToken: "" },
        "https://b",
      );
      expect(code.link).toBeUndefined();
      expect(code.text).toContain("482913");
      expect(code.text).not.toContain("https://b");
      expect(code.subject).toBe(locale === "es" ? "Tu código de inicio de sesión" : "Your sign-in code");
      const sms = buildMessage(
        makeJob(keys, { locale, purpose: "access_code", channel: "sms" }).job,
        { code: "482913", linkToken: "" },
        "https://b",
      );
      expect(sms.text).toBe(smsText(locale, "482913", "access_code"));
      expect(sms.text).toContain("482913");

      const activation = buildMessage(
        makeJob(keys, { locale, purpose: "activation" }).job,
        { code: "", linkToken: "tok" },
        "https://b",
      );
      expect(activation.link).toBe(`https://b/activityid/v1/user/activate?token=tok&ui_locales=${locale}`);
      expect(activation.text).toContain(activation.link);
      expect(activation.text).toContain(locale === "es" ? "7 días" : "7 days");
      expect(activation.subject).toBe(locale === "es" ? "Activa tu cuenta" : "Activate your account");
      const activationSms = buildMessage(
        makeJob(keys, { locale, purpose: "activation", channel: "sms" }).job,
        { code: "", linkToken: "tok" },
        "https://b",
      );
      expect(activationSms.text).toContain(`https://b/activityid/v1/user/activate?token=tok&ui_locales=${locale}`);
    }
    expect(emailMessage("es", "access_code", "1", "").text).toContain("10 minutos");
  });

  it("derives a stable Message-ID from the delivery id", () => {
    expect(messageIdFor("d-1", "example.com")).toBe("<confirm-d-1@example.com>");
  });
});
