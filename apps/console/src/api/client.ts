import { accessToken, getSession, refreshSession, setSession } from "../auth/store.ts";
import { currentLanguage } from "../i18n/language.ts";

// /admin/v1 over fetch: the operator's bearer token, Accept-Language for the
// API's messages, the contract's envelopes (section 2) unwrapped.

export interface ErrorItem {
  field: string;
  code: string;
  message: string;
}

/** An error answer of the API in words: its code, localized message, details and items. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: string;
  readonly items: ErrorItem[];
  constructor(status: number, code: string, message: string, details = "", items: ErrorItem[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.items = items;
  }
}

/** The error of a non-2xx answer, from its §2 envelope when it has one. */
export async function errorOf(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => undefined)) as
    { errors?: Partial<ApiError> & { items?: ErrorItem[] } } | undefined;
  const e = body?.errors;
  if (e && typeof e.code === "string")
    return new ApiError(res.status, e.code, String(e.message ?? e.code), String(e.details ?? ""), e.items ?? []);
  return new ApiError(res.status, res.status >= 500 ? "unavailable" : "http_error", `HTTP ${res.status}`);
}

/** NDJSON, the form of the users' bulk import and export (contract section 15). */
export const NDJSON = "application/x-ndjson";

async function send(method: string, path: string, body: unknown, token: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", "accept-language": currentLanguage() };
  if (token) headers.authorization = `Bearer ${token}`;
  // A file (the import's NDJSON) goes as it is; anything else as JSON.
  if (body instanceof Blob) headers["content-type"] = NDJSON;
  else if (body !== undefined) headers["content-type"] = "application/json";
  const payload = body === undefined || body instanceof Blob ? body : JSON.stringify(body);
  return fetch(`/admin/v1${path}`, { method, headers, body: payload });
}

/** The answer of an admin call, refreshed once on a 401 (then signed out); an ApiError for any other failure. */
async function call(method: string, path: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await send(method, path, body, await accessToken());
    if (res.status === 401 && getSession()?.refreshToken) {
      const next = await refreshSession();
      if (next) res = await send(method, path, body, next.accessToken);
    }
  } catch {
    throw new ApiError(0, "network", "");
  }
  if (res.status === 401) {
    setSession(undefined, { expired: true });
    throw await errorOf(res);
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

/** Calls the admin API; `content` of the answer (undefined for 204). A Blob body is sent as NDJSON. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await call(method, path, body);
  if (res.status === 204) return undefined as T;
  return ((await res.json()) as { content: T }).content;
}

/** A GET whose answer is a file (the users' NDJSON export). */
export async function apiFile(path: string): Promise<Blob> {
  return (await call("GET", path)).blob();
}

/** `?a=1&b=2` of the members that are set. */
export function query(params: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : "";
}
