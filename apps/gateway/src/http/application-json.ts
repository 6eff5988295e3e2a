import { fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { ApplicationSchema, type Application } from "@gatehouse/proto";

// Proto JSON names equal the public contract's, so the mapping is the
// protobuf JSON mapping plus `created` in place of createTime/updateTime.

export function applicationFromJson(body: unknown): Application {
  return fromJson(ApplicationSchema, body as JsonObject);
}

export function applicationToJson(app: Application): Record<string, unknown> {
  const json = toJson(ApplicationSchema, app) as Record<string, unknown>;
  delete json.createTime;
  delete json.updateTime;
  json.created = app.createTime ? timestampDate(app.createTime).toISOString() : new Date(0).toISOString();
  return json;
}
