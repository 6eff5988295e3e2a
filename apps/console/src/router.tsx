import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

// Client-side navigation under /console with the History API: real links
// (open in a new tab works), the gateway answers index.html for every path.

export const BASE = "/console";
const CHANGE = "gatehouse:navigate";

const subscribe = (cb: () => void) => {
  window.addEventListener("popstate", cb);
  window.addEventListener(CHANGE, cb);
  return () => {
    window.removeEventListener("popstate", cb);
    window.removeEventListener(CHANGE, cb);
  };
};
const snapshot = () => location.pathname + location.search;

/** The console path (without /console) and its query. */
export function useLocation(): { path: string; params: URLSearchParams } {
  const full = useSyncExternalStore(subscribe, snapshot, () => "/");
  const url = new URL(full, "http://x");
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || "/" : url.pathname;
  return { path, params: url.searchParams };
}

export const href = (to: string) => BASE + (to.startsWith("/") ? to : `/${to}`);

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = href(to);
  if (url === snapshot()) return;
  if (opts.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.dispatchEvent(new Event(CHANGE));
  window.scrollTo(0, 0);
}

/** Matches `/apps/:id` against a path; the decoded parameters or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const a = pattern.split("/");
  const b = path.split("/");
  if (a.length !== b.length) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.startsWith(":")) out[a[i]!.slice(1)] = decodeURIComponent(b[i]!);
    else if (a[i] !== b[i]) return undefined;
  }
  return out;
}

export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const go = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={go} {...rest} />;
}
