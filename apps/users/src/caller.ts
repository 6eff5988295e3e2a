import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Caller } from "@gatehouse/proto";

/** The language of the messages sent to the user on behalf of this caller. */
export const localeOf = (caller: Caller | undefined): DeliveryLocale => (caller?.locale === "es" ? "es" : "en");
