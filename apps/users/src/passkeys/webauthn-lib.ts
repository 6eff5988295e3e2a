// @simplewebauthn/server (~25 MB of RSS once loaded: its ASN.1 and CBOR
// parsers) loads at a process's first passkey operation, not in every users
// process at start.
let lib: Promise<typeof import("@simplewebauthn/server")> | undefined;
let helpers: Promise<typeof import("@simplewebauthn/server/helpers")> | undefined;

export const webauthn = () => (lib ??= import("@simplewebauthn/server"));
export const webauthnHelpers = () => (helpers ??= import("@simplewebauthn/server/helpers"));
