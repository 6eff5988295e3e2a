import { clone, create } from "@bufbuild/protobuf";
import {
  ApplicationSchema,
  TypologiesSchema,
  TypologyRefSchema,
  type Application,
  type Entrypoint,
  type FieldConfig,
} from "@gatehouse/proto";

/** typology.register.id when the caller leaves it out. */
export const DEFAULT_TYPOLOGY = "consumer";

/**
 * The application as it is stored and returned: every default of the
 * Entrypoint and fieldConfig tables written out. Ids and times are the
 * store's to set, so any the caller sent are dropped.
 */
export function withDefaults(input: Application): Application {
  const app = clone(ApplicationSchema, input);
  app.id = "";
  app.createTime = undefined;
  app.updateTime = undefined;
  for (const ep of app.entrypoints) {
    ep.id = "";
    fillEntrypointDefaults(ep);
  }
  return app;
}

/** Writes out every default of the Entrypoint and fieldConfig tables (in place). */
export function fillEntrypointDefaults(ep: Entrypoint): void {
  ep.assisted ??= false;
  ep.passwordless ??= false;
  ep.typology ??= create(TypologiesSchema);
  ep.typology.register ??= create(TypologyRefSchema, { objectType: "typology" });
  ep.typology.work ??= create(TypologyRefSchema, { objectType: "typology" });
  ep.typology.register.id ??= DEFAULT_TYPOLOGY;
  ep.typology.work.id ??= ep.typology.register.id;
  for (const field of ep.fields) fieldDefaults(field);
}

function fieldDefaults(field: FieldConfig): void {
  if (field.type === "id") {
    field.requiresVerification ??= false;
  } else {
    field.mandatory ??= true;
    field.useForValidation ??= false;
    field.step ??= 1;
  }
}
