import { randomBytes } from "node:crypto";

/** Contract section 14: every event type, in the order the docs list them. */
export const EVENT_TYPES = [
  "user.created",
  "user.confirmed",
  "user.updated",
  "user.password_changed",
  "user.mfa_enabled",
  "user.login",
  "user.locked",
  "user.unlocked",
  "user.deleted",
  "application.created",
  "application.updated",
  "application.password_rotated",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (s: string): s is EventType => (EVENT_TYPES as readonly string[]).includes(s);

/** The body delivered (and stored): ids and changed field names, never a secret, hash or code. */
export interface WebhookEvent {
  id: string;
  type: EventType;
  /** RFC 3339. */
  time: string;
  /** The client_id the change came through, or null. */
  application: string | null;
  data: Record<string, unknown>;
}

/** Time-ordered, unguessable: "evt_" + 9 base-36 digits of milliseconds + 16 hex of randomness. */
export function newEventId(now = Date.now()): string {
  return `evt_${now.toString(36).padStart(9, "0")}${randomBytes(8).toString("hex")}`;
}

export function newEvent(
  type: EventType,
  application: string | null | undefined,
  data: Record<string, unknown>,
  now = new Date(),
): WebhookEvent {
  return { id: newEventId(now.getTime()), type, time: now.toISOString(), application: application || null, data };
}

/** A user event: `data.user` holds the ids (and for user.updated the names of the changed fields). */
export function userEvent(
  type: Extract<EventType, `user.${string}`>,
  application: string | null | undefined,
  user: { id: string; pulseId: string },
  changed?: string[],
): WebhookEvent {
  const ref: Record<string, unknown> = { id: user.id, pulse_id: user.pulseId };
  if (changed) ref.changed = [...changed].sort();
  return newEvent(type, application, { user: ref });
}

/** Whether an endpoint's subscription takes an event. */
export function subscribed(
  filter: { events: readonly string[]; application: string | null },
  event: { type: string; application: string | null },
): boolean {
  if (filter.application && filter.application !== event.application) return false;
  return filter.events.includes("*") || filter.events.includes(event.type);
}
