import type { HashFamily } from "./family.ts";

// $2a$, $2b$ (OpenBSD, Node) and $2y$ (PHP's crypt_blowfish) are the same algorithm; cost 4–16 (31 would take days).
const BCRYPT = /^\$2[aby]\$(0[4-9]|1[0-6])\$[./A-Za-z0-9]{53}$/;

/** bcrypt as crypt(3) writes it; bcryptjs compares in constant time and yields while it hashes. */
export const bcryptFamily: HashFamily = {
  name: "bcrypt",
  owns: (stored) => stored.startsWith("$2"),
  read: (value) => (typeof value === "string" && BCRYPT.test(value) ? value : undefined),
  // Loaded at the first imported bcrypt user's login, not in every users process.
  verify: async (stored, password) => (await import("bcryptjs")).default.compare(password, stored),
  exported: (stored) => stored,
};
