import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./common.ts";
import { normalizePassword, passwordProblem } from "./policy.ts";

describe("password policy", () => {
  it("counts characters after NFKC: 8 to 128, no composition rules", () => {
    expect(passwordProblem("short7!")).toBe("too_short");
    expect(passwordProblem("correct horse")).toBeUndefined();
    expect(passwordProblem("lowercaseonlyphrase")).toBeUndefined();
    expect(passwordProblem("x".repeat(127) + "y")).toBeUndefined();
    expect(passwordProblem("y".repeat(129))).toBe("too_long");
    // Four astral characters are four characters, not eight UTF-16 units.
    expect(passwordProblem("🐴🐴🐴🐴")).toBe("too_short");
    // "ﬃ" (one character) is "ffi" (three) after NFKC: 6 + 3 = 9 characters.
    expect(passwordProblem("ﬃzzlqwv")).toBeUndefined();
    expect([..."ﬃzzlqwv"].length).toBe(7);
  });

  it("one password in two normalization forms is one password", () => {
    const composed = "Caf\u00e9 au lait 42";
    const decomposed = "Cafe\u0301 au lait 42";
    expect(composed).not.toBe(decomposed);
    expect(normalizePassword(composed)).toBe(normalizePassword(decomposed));
    // Full-width digits and letters fold to ASCII.
    expect(normalizePassword("ｐａｓｓｗｏｒｄ１")).toBe("password1");
  });

  it("refuses the 10,000 most common passwords, ignoring case and width", () => {
    expect(isCommonPassword("password")).toBe(true);
    expect(passwordProblem("password")).toBe("password_weak");
    expect(passwordProblem("Password1")).toBe("password_weak");
    expect(passwordProblem("ｐａｓｓｗｏｒｄ１")).toBe("password_weak");
    expect(passwordProblem("qwertyuiop")).toBe("password_weak");
    expect(passwordProblem("blue-tractor-amber")).toBeUndefined();
  });

  it("refuses the repeats and runs that leaked lists rank high but zxcvbn's dictionary leaves to its pattern matchers", () => {
    for (const weak of [
      "00000000",
      "aaaaaaaa",
      "12121212",
      "12341234",
      "123123123",
      "123456123456",
      "87654321",
      "987654321",
      "23456789",
      "0987654321",
      "abcdefgh",
      "ZYXWVUTS",
    ])
      expect(passwordProblem(weak), weak).toBe("password_weak");
    for (const fine of ["12345679x", "abcdefgz", "aaaaaaab", "31415926x", "blue-tractor-amber", "ababababc"])
      expect(passwordProblem(fine), fine).toBeUndefined();
  });

  it("refuses a password holding the email's local part or the phone's digits", () => {
    const context = { emails: ["Ana.Lopez@example.com"], phones: ["+34600111222"] };
    expect(passwordProblem("my ana.lopez secret", context)).toBe("password_weak");
    expect(passwordProblem("ANA.LOPEZ-2026!", context)).toBe("password_weak");
    expect(passwordProblem("call 34600111222", context)).toBe("password_weak");
    expect(passwordProblem("pin 600111222 x", context)).toBe("password_weak");
    expect(passwordProblem("blue-tractor-amber", context)).toBeUndefined();
    // A very short local part does not refuse every password holding its letters.
    expect(passwordProblem("blue-tractor-amber", { emails: ["bl@example.com"] })).toBeUndefined();
    expect(passwordProblem("blue-tractor-amber", { emails: [undefined], phones: [undefined] })).toBeUndefined();
  });
});
