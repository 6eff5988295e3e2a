#!/usr/bin/env node
// Turns another identity provider's user export into Gatehouse's import form
// (NDJSON, one user a line; docs/api.md "Bulk import and export"):
//
//   node scripts/convert-users.mjs auth0 passwords.json > users.ndjson
//   node scripts/convert-users.mjs firebase users.json > users.ndjson
//   node scripts/convert-users.mjs keycloak realm-export.json > users.ndjson
//
// Options: --name-key KEY puts the display name in that data field (default
// none); --phone adds the phone number as the phone_number id. Users without
// an email are left out (counted on stderr). Auth0's password-hash export is
// NDJSON and read line by line; Firebase's and Keycloak's exports are one
// JSON document, read whole.
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import process from "node:process";
import { createInterface } from "node:readline";

/** An export's timestamp (ISO text, epoch milliseconds as number or text, Mongo's {"$date"}) as RFC 3339. */
function iso(v) {
  if (v && typeof v === "object" && "$date" in v) v = v.$date;
  if (typeof v === "string" && /^\d+$/.test(v)) v = Number(v);
  const d = v === undefined || v === null ? undefined : new Date(v);
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
}

/** One import line, or undefined without an email. */
function line({ email, verified, phone, name, created, password }, opts) {
  if (typeof email !== "string" || !email) return undefined;
  const ids = { email: { objectType: "user_id", value: email } };
  if (opts.phone && typeof phone === "string" && phone) ids.phone_number = { objectType: "user_id", value: phone };
  const out = { ids, confirmed: verified ? ["email"] : [] };
  if (opts.nameKey && typeof name === "string" && name.trim())
    out.datas = { [opts.nameKey]: { objectType: "data", value: name.trim() } };
  const at = iso(created);
  if (at) out.created = at;
  if (password) out.password = password;
  return JSON.stringify(out);
}

/** Auth0's password-hash export (one Mongo-style JSON object a line: email, email_verified, passwordHash). */
async function* auth0(file) {
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!text.trim()) continue;
    const u = JSON.parse(text);
    yield {
      email: u.email,
      verified: u.email_verified === true,
      phone: u.phone_number,
      name: u.name ?? [u.given_name, u.family_name].filter(Boolean).join(" "),
      created: u.created_at ?? u.password_set_date,
      password: u.passwordHash ?? u.password_hash,
    };
  }
}

/** `firebase auth:export --format=json`: {"users": [{localId, email, emailVerified, passwordHash, salt, ...}]}. */
async function* firebase(file) {
  const { users = [] } = JSON.parse(await readFile(file, "utf8"));
  for (const u of users)
    yield {
      email: u.email,
      verified: u.emailVerified === true,
      phone: u.phoneNumber,
      name: u.displayName,
      created: u.createdAt,
      // The project's hash parameters go in the import's ?firebase= (the console's "Password hash parameters").
      password:
        u.passwordHash && u.salt ? { algorithm: "firebase-scrypt", hash: u.passwordHash, salt: u.salt } : undefined,
    };
}

/** Keycloak's realm export (or a users file of it): {"users": [{email, emailVerified, credentials, ...}]}. */
async function* keycloak(file) {
  const { users = [] } = JSON.parse(await readFile(file, "utf8"));
  for (const u of users)
    yield {
      email: u.email,
      verified: u.emailVerified === true,
      phone: u.attributes?.phoneNumber?.[0],
      name: [u.firstName, u.lastName].filter(Boolean).join(" "),
      created: u.createdTimestamp,
      // The credential as exported: the import reads its secretData and credentialData.
      password: (u.credentials ?? []).find((c) => c.type === "password"),
    };
}

const SOURCES = { auth0, firebase, keycloak };

async function main(argv) {
  const [source, file, ...rest] = argv;
  const opts = { nameKey: undefined, phone: false };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--name-key") opts.nameKey = rest[++i];
    else if (rest[i] === "--phone") opts.phone = true;
    else throw new Error(`unknown option ${rest[i]}`);
  }
  if (!SOURCES[source] || !file) {
    process.stderr.write(
      "usage: node scripts/convert-users.mjs auth0|firebase|keycloak FILE [--name-key KEY] [--phone]\n",
    );
    process.exitCode = 2;
    return;
  }
  let written = 0;
  let left = 0;
  for await (const u of SOURCES[source](file)) {
    const l = line(u, opts);
    if (l === undefined) left++;
    else if (!process.stdout.write(`${l}\n`)) await new Promise((r) => process.stdout.once("drain", r));
    if (l !== undefined) written++;
  }
  process.stderr.write(`${written} users written${left ? `, ${left} without an email left out` : ""}\n`);
}

await main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`convert-users: ${err.message}\n`);
  process.exitCode = 1;
});
