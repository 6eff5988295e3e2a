import { createServer as createHttpServer, type Server } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch, urlProblem, UpstreamUnavailable } from "./outbound.ts";

describe("the outbound policy of identity providers (no SSRF)", () => {
  const prod = { allowPrivate: false };
  const dev = { allowPrivate: true };
  it("takes public https and a loopback host (section 11: development); refuses http elsewhere, private addresses, credentials and fragments", () => {
    expect(urlProblem("https://accounts.google.com", prod)).toBeUndefined();
    for (const url of ["http://127.0.0.1:8080", "https://127.0.0.1", "https://localhost/x", "http://[::1]:3000/x"])
      expect(urlProblem(url, prod), url).toBeUndefined();
    for (const url of [
      "http://accounts.google.com",
      "ftp://127.0.0.1",
      "https://10.1.2.3",
      "https://192.168.0.1",
      "https://169.254.169.254/latest",
      "https://[fd00::1]/",
      "https://u:p@example.com",
      "https://example.com/#x",
      "ftp://example.com",
      "not a url",
    ])
      expect(urlProblem(url, prod), url).toBeTypeOf("string");
  });

  it("in development (IDP_ALLOW_PRIVATE=true) takes http on a loopback host and private addresses, still not http elsewhere", () => {
    expect(urlProblem("http://127.0.0.1:8080", dev)).toBeUndefined();
    expect(urlProblem("http://localhost:3000/x", dev)).toBeUndefined();
    expect(urlProblem("http://[::1]:3000/x", dev)).toBeUndefined();
    expect(urlProblem("https://10.0.0.1", dev)).toBeUndefined();
    expect(urlProblem("http://10.0.0.1", dev)).toBeTypeOf("string");
    expect(urlProblem("http://example.com", dev)).toBeTypeOf("string");
  });

  it("refuses a host name that does not resolve, or resolves inside, before connecting", async () => {
    const f = guardedFetch({ allowPrivate: false, timeoutMs: 1000 });
    await expect(f("https://localhost.localdomain.invalid/", {})).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(f("https://10.0.0.1/", {})).rejects.toThrow(/private/);
  });
});

// The connection goes to the address that was checked, against real loopback
// servers and a resolver standing in for DNS (the names exist nowhere else).
describe("guarded calls connect to the checked address", () => {
  const tcpHits: string[] = [];
  const sni: string[] = [];
  const httpHits: string[] = [];
  let tcp: ReturnType<typeof createServer>;
  let tls: ReturnType<typeof createTlsServer>;
  let http: Server;
  const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
  beforeAll(async () => {
    tcp = createServer((socket) => {
      tcpHits.push(socket.remoteAddress ?? "");
      socket.destroy();
    });
    // No certificate: the handshake fails after the client named the host it wants (SNI).
    tls = createTlsServer({ SNICallback: (name, cb) => (sni.push(name), cb(new Error("no certificate here"))) });
    tls.on("tlsClientError", () => {});
    http = createHttpServer((req, res) => {
      httpHits.push(req.url ?? "");
      if (req.url === "/redirect") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    for (const s of [tcp, tls, http]) await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    for (const s of [tcp, tls, http]) await new Promise<void>((r) => s.close(() => r()));
  });

  it("a name that answers public first and loopback on the next lookup never reaches loopback", async () => {
    let lookups = 0;
    // 93.184.216.34 is public; whatever is there (or nothing) does not answer this port within the timeout.
    const rebinding = async () =>
      lookups++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
    const f = guardedFetch({ allowPrivate: false, timeoutMs: 500 }, rebinding);
    await expect(f(`https://rebind.example.test:${port(tcp)}/`, {})).rejects.toThrow();
    expect(lookups).toBe(1);
    expect(tcpHits).toEqual([]);
    // The next connection's lookup is checked again: now refused, still nothing reached.
    await expect(f(`https://rebind.example.test:${port(tcp)}/`, {})).rejects.toThrow(/loopback or private/);
    expect(tcpHits).toEqual([]);
  });

  it("refuses a name with any inside address, even beside a public one", async () => {
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const f = guardedFetch({ allowPrivate: false, timeoutMs: 1000 }, mixed);
    const refused = f(`https://idp.example.test:${port(tcp)}/`, {});
    await expect(refused).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(refused).rejects.toThrow(/idp.example.test resolves to a loopback or private address/);
    expect(tcpHits).toEqual([]);
  });

  it("with IDP_ALLOW_PRIVATE=true connects to the resolved address and still sends the host name for TLS", async () => {
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 }];
    const f = guardedFetch({ allowPrivate: true, timeoutMs: 1000 }, toLoopback);
    // The certificate check fails (there is none), after the server heard the name: SNI is the host, not the address.
    await expect(f(`https://idp.example.test:${port(tls)}/.well-known/openid-configuration`, {})).rejects.toThrow();
    expect(sni).toEqual(["idp.example.test"]);
  });

  it("takes http on a loopback host without the flag, and does not follow redirects", async () => {
    const f = guardedFetch({ allowPrivate: false, timeoutMs: 1000 });
    const ok = await f(`http://localhost:${port(http)}/jwks`, {});
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({});
    const moved = await f(`http://127.0.0.1:${port(http)}/redirect`, {});
    expect(moved.status).toBe(302);
    expect(httpHits).toEqual(["/jwks", "/redirect"]);
  });
});
