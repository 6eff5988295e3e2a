import { randomBytes, randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { sealJobSecrets, type ConfirmationJob } from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import { KeyRing, randomDigits, randomSecret } from "@gatehouse/secrets";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export function capturedLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: "debug" }, stream), text: () => chunks.join("") };
}

export const testKeys = () => new KeyRing(randomBytes(32));

/** A job with a fresh random code and link token, remembered so tests can look for them in logs. */
export function makeJob(keys: KeyRing, over: Partial<ConfirmationJob> = {}) {
  const deliveryId = over.deliveryId ?? randomUUID();
  const secrets = { code: randomDigits(6), linkToken: randomSecret(24) };
  const job: ConfirmationJob = {
    deliveryId,
    userId: "u-1",
    channel: "email",
    to: "ana@example.com",
    locale: "en",
    purpose: "register",
    sealedSecrets: sealJobSecrets(keys, deliveryId, secrets),
    ...over,
  };
  return { job, ...secrets };
}

export async function freePort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface CapturedMail {
  to: string[];
  headers: Record<string, string>;
  body: string;
}

function parseMail(raw: string, to: string[]): CapturedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (headers["content-transfer-encoding"] === "quoted-printable") {
    const bytes = body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => `%${h}`);
    body = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, "%25"));
  }
  return { to, headers, body: body.replace(/\r\n/g, "\n") };
}

/** A real SMTP server (smtp-server) that keeps every message it accepts. */
export async function startSmtpSink(
  port = 0,
): Promise<{ port: number; mails: CapturedMail[]; close(): Promise<void> }> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 500, // do not wait 30 s for a pooled client to hang up
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString("utf8"),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return { port: address.port, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface CapturedRequest {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** An HTTP sink for the SMS webhook; `statuses` are answered in turn (the last one repeats). */
export async function startHttpSink(statuses: number[] = [200]) {
  const requests: CapturedRequest[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.statusCode = statuses[Math.min(requests.length - 1, statuses.length - 1)]!;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export const fastJobOptions = { backoff: { type: "exponential" as const, delay: 100, jitter: 0.5 } };
