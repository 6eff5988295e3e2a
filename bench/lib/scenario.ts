import { backgroundLoad, runMeter, warnSteal } from "./machine.ts";
import { peekJwt, runLoad, sendOnce, type LoadRequest, type LoadSettings } from "./load.ts";
import type { Measured } from "./report.ts";
import type { Target } from "./targets.ts";

const WARM_UP_SECONDS = 3;
// Above this share of busy CPU with the server idle, other work is running beside the bench.
const NOISY_BACKGROUND = 0.15;

/** POST token with client_secret_basic and the given form body. */
export function tokenRequest(t: Target, form: Record<string, string>): LoadRequest {
  const basic = Buffer.from(`${encodeURIComponent(t.clientId)}:${encodeURIComponent(t.clientSecret)}`).toString(
    "base64",
  );
  return {
    url: `${t.baseUrl}${t.tokenPath}`,
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  };
}

/** A token response's sample check: an RFC 9068 JWT access token; its alg is reported. */
export function accessTokenSample(t: Target, sample: Record<string, unknown>): string {
  if (typeof sample.access_token !== "string")
    throw new Error(`${t.name}: no access_token in ${JSON.stringify(sample)}`);
  const { header } = peekJwt(sample.access_token);
  if (header.typ !== "at+jwt")
    throw new Error(`${t.name}: access token is not an RFC 9068 JWT (header ${JSON.stringify(header)})`);
  return String(header.alg);
}

/**
 * One scenario on one target: a checked sample (2xx, by default an RFC 9068
 * JWT; `check` throws on a wrong answer and names the token's alg), a
 * warm-up, then the measured run.
 */
export async function measure(
  t: Target,
  req: LoadRequest,
  settings: LoadSettings,
  check: (t: Target, sample: Record<string, unknown>) => string = accessTokenSample,
): Promise<Measured> {
  const background = await backgroundLoad();
  if (background > NOISY_BACKGROUND) {
    console.warn(
      `${t.name}: ${(background * 100).toFixed(0)}% of the CPU is busy before the run: other work will skew the figures`,
    );
  }
  const tokenAlg = check(t, await sendOnce(req));
  console.log(`${t.name}: warm-up ${WARM_UP_SECONDS} s`);
  await runLoad(req, { ...settings, seconds: WARM_UP_SECONDS });
  console.log(`${t.name}: measuring ${settings.seconds} s`);
  const meter = runMeter(() => t.child.cpuSeconds());
  const result = await runLoad(req, settings);
  const cpu = meter();
  warnSteal(t.name, cpu.steal);
  const cpuMicrosPerRequest =
    cpu.serverCpuSeconds === undefined || result.requests === 0
      ? undefined
      : Math.round((cpu.serverCpuSeconds * 1e6) / result.requests);
  return {
    name: t.name,
    tokenAlg,
    result,
    cpuMicrosPerRequest,
    backgroundLoad: Math.round(background * 100) / 100,
    cpu,
  };
}
