import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// A software WebAuthn authenticator for tests: a discoverable credential per
// `create`, attestation `none`, ES256 (default) or RS256, and knobs to
// produce each wrong answer a relying party must refuse.

type Json = Record<string, any>;

const b64u = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  alg: -7 | -257;
  userHandle: string;
  rpId: string;
  counter: number;
}

/** What a ceremony may get wrong on purpose. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** false: the user-verified flag is not set. */
  uv?: boolean;
  /** The counter to sign with (default: one more than the last). */
  counter?: number;
  /** Sign with another key. */
  wrongKey?: boolean;
}

function coseKey(publicKey: KeyObject, alg: -7 | -257): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const m = new Map<number, unknown>();
  if (alg === -7) {
    m.set(1, 2).set(3, -7).set(-1, 1);
    m.set(-2, Buffer.from(jwk.x!, "base64url")).set(-3, Buffer.from(jwk.y!, "base64url"));
  } else {
    m.set(1, 3).set(3, -257);
    m.set(-1, Buffer.from(jwk.n!, "base64url")).set(-2, Buffer.from(jwk.e!, "base64url"));
  }
  return isoCBOR.encode(m as never);
}

function authData(rpId: string, uv: boolean, counter: number, attested?: Buffer): Buffer {
  // UP, UV, BE+BS (a synced passkey), AT when a credential is attested.
  const flags = 0x01 | (uv ? 0x04 : 0) | 0x08 | 0x10 | (attested ? 0x40 : 0);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  constructor(
    readonly origin: string,
    readonly alg: -7 | -257 = -7,
  ) {}

  /** navigator.credentials.create: RegistrationResponseJSON for creation options (JSON). */
  create(options: Json, t: Tamper = {}): Json {
    const rpId = t.rpId ?? options.rp.id;
    const { privateKey, publicKey } =
      this.alg === -7
        ? generateKeyPairSync("ec", { namedCurve: "P-256" })
        : generateKeyPairSync("rsa", { modulusLength: 2048 });
    const id = randomBytes(16);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), len, id, coseKey(publicKey, this.alg)]);
    const data = authData(rpId, t.uv ?? true, 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(data)],
      ]) as never,
    );
    this.credentials.push({ id: b64u(id), privateKey, alg: this.alg, userHandle: options.user.id, rpId, counter: 0 });
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: "public-key",
      response: {
        clientDataJSON: b64u(clientData("webauthn.create", t.challenge ?? options.challenge, t.origin ?? this.origin)),
        attestationObject: b64u(attestationObject),
        transports: ["internal", "hybrid"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get: AuthenticationResponseJSON for request options, with the last (or given) credential. */
  get(options: Json, t: Tamper = {}, credential = this.credentials.at(-1)!): Json {
    const counter = t.counter ?? credential.counter + 1;
    credential.counter = Math.max(credential.counter, counter);
    const data = authData(t.rpId ?? options.rpId ?? credential.rpId, t.uv ?? true, counter);
    const cdj = clientData("webauthn.get", t.challenge ?? options.challenge, t.origin ?? this.origin);
    const key = t.wrongKey ? generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey : credential.privateKey;
    const signature = sign("sha256", Buffer.concat([data, sha256(cdj)]), key);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64u(cdj),
        authenticatorData: b64u(data),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
