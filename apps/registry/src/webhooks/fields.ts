import { isEventType, resolvedUrlProblem, type TargetPolicy } from "@gatehouse/events";
import { validationError, type Violation } from "@gatehouse/errors";
import type { WebhookFields } from "./store.ts";

const MAX_DESCRIPTION = 500;

/** An endpoint's fields under every rule (VALIDATION_FAILED with each violation): the URL, known events, a known application. */
export async function checkFields(
  f: WebhookFields,
  policy: TargetPolicy,
  applicationExists: (clientId: string) => Promise<boolean>,
): Promise<void> {
  const v: Violation[] = [];
  if (!f.url) v.push({ field: "url", code: "required" });
  else {
    const problem = await resolvedUrlProblem(f.url, policy);
    if (problem) v.push({ field: "url", ...problem });
  }
  if (!f.events.length) v.push({ field: "events", code: "required", description: 'event types, or ["*"]' });
  f.events.forEach((e, i) => {
    if (e !== "*" && !isEventType(e))
      v.push({ field: `events.${i}`, code: "invalid_value", description: "an event type" });
  });
  if (new Set(f.events).size !== f.events.length) v.push({ field: "events", code: "duplicate" });
  if (f.description.length > MAX_DESCRIPTION)
    v.push({ field: "description", code: "too_long", description: `at most ${MAX_DESCRIPTION} characters` });
  if (f.application && !(await applicationExists(f.application)))
    v.push({ field: "application", code: "not_found", description: "no application with that client_id" });
  if (v.length) throw validationError(v);
}
