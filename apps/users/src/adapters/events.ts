import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { EventsService } from "@gatehouse/proto";
import type { PublishEvents } from "../events/relay.ts";

/** The outbox relay's port over the registry's EventsService (in-process or HTTP). */
export function registryEvents(events: Client<typeof EventsService>): PublishEvents {
  return async (batch) => {
    await events.publishEvents(
      {
        events: batch.map((e) => ({
          id: e.id,
          type: e.type,
          time: timestampFromDate(new Date(e.time)),
          application: e.application ?? "",
          data: e.data as JsonObject,
        })),
      },
      { timeoutMs: 10_000 },
    );
  };
}
