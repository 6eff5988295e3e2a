import { describe } from "vitest";
import { backends } from "../../../test/harness.ts";
import { dataField, ep, idField, itRejectsEachCase, useRuleSuite, type Case } from "../../../test/rule-cases.ts";

// One case per rule of the Entrypoint and fieldConfig tables.

const entrypointCases: Case[] = [
  ["entrypoint objectType missing", (a) => delete ep(a).objectType, [["entrypoints.0.objectType", "required"]]],
  ["entrypoint objectType wrong", (a) => (ep(a).objectType = "form"), [["entrypoints.0.objectType", "invalid_value"]]],
  ["entrypoint displayName missing", (a) => delete ep(a).displayName, [["entrypoints.0.displayName", "required"]]],
  ["entrypoint key bad", (a) => (ep(a).key = "Web App"), [["entrypoints.0.key", "invalid_format"]]],
  ["entrypoint keys repeated", (a) => a.entrypoints.push({ ...ep(a) }), [["entrypoints.1.key", "duplicate"]]],
  [
    "entrypoint key equal to another's index",
    (a) => {
      const { key: _key, ...unkeyed } = ep(a);
      ep(a).key = "1";
      a.entrypoints.push(unkeyed);
    },
    [["entrypoints.0.key", "duplicate"]],
  ],
  ["fields empty", (a) => (ep(a).fields = []), [["entrypoints.0.fields", "too_few"]]],
  ["no identifier field", (a) => (ep(a).fields = [dataField("name")]), [["entrypoints.0.fields", "too_few"]]],
  [
    "register objectType missing",
    (a) => delete ep(a).typology.register.objectType,
    [["entrypoints.0.typology.register.objectType", "required"]],
  ],
  [
    "work objectType wrong",
    (a) => (ep(a).typology.work.objectType = "kind"),
    [["entrypoints.0.typology.work.objectType", "invalid_value"]],
  ],
  [
    "typology missing",
    (a) => delete ep(a).typology,
    [
      ["entrypoints.0.typology.register.objectType", "required"],
      ["entrypoints.0.typology.work.objectType", "required"],
    ],
  ],
  [
    "register id unknown",
    (a) => (ep(a).typology.register.id = "vip"),
    [["entrypoints.0.typology.register.id", "unknown_key"]],
  ],
  ["work id unknown", (a) => (ep(a).typology.work.id = "vip"), [["entrypoints.0.typology.work.id", "unknown_key"]]],
];

const fieldCases: Case[] = [
  [
    "field objectType wrong",
    (a) => (ep(a).fields[1].objectType = "field"),
    [["entrypoints.0.fields.1.objectType", "invalid_value"]],
  ],
  ["field type unknown", (a) => (ep(a).fields[1].type = "data"), [["entrypoints.0.fields.1.type", "invalid_value"]]],
  ["field type missing", (a) => delete ep(a).fields[1].type, [["entrypoints.0.fields.1.type", "required"]]],
  ["field key missing", (a) => delete ep(a).fields[1].key, [["entrypoints.0.fields.1.key", "required"]]],
  [
    "id key not an identifier",
    (a) => ep(a).fields.push(idField("username")),
    [["entrypoints.0.fields.2.key", "invalid_value"]],
  ],
  ["confirmed id key missing", (a) => delete ep(a).fields[0].key, [["entrypoints.0.fields.0.key", "required"]]],
  [
    "confirmed id key not an identifier",
    (a) => (ep(a).fields[0].key = "username"),
    [["entrypoints.0.fields.0.key", "invalid_value"]],
  ],
  ["id main missing", (a) => delete ep(a).fields[0].main, [["entrypoints.0.fields.0.main", "required"]]],
  ["id mandatory missing", (a) => delete ep(a).fields[0].mandatory, [["entrypoints.0.fields.0.mandatory", "required"]]],
  [
    "id requiresConfirmation missing",
    (a) => delete ep(a).fields[0].requiresConfirmation,
    [["entrypoints.0.fields.0.requiresConfirmation", "required"]],
  ],
  [
    "requiresConfirmation on screen_name",
    (a) => ep(a).fields.push(idField("screen_name", { requiresConfirmation: true })),
    [["entrypoints.0.fields.2.requiresConfirmation", "not_allowed"]],
  ],
  [
    "requiresConfirmation on national_id",
    (a) => ep(a).fields.push(idField("national_id", { requiresConfirmation: true })),
    [["entrypoints.0.fields.2.requiresConfirmation", "not_allowed"]],
  ],
  [
    "requiresVerification without face verification",
    (a) => ep(a).fields.push(idField("national_id", { requiresVerification: true })),
    [["entrypoints.0.fields.2.requiresVerification", "not_allowed"]],
  ],
  [
    "requiresVerification on email",
    (a) => (ep(a).fields[0].requiresVerification = true),
    [["entrypoints.0.fields.0.requiresVerification", "not_allowed"]],
  ],
  [
    "useForValidation on an id field",
    (a) => (ep(a).fields[0].useForValidation = false),
    [["entrypoints.0.fields.0.useForValidation", "not_allowed"]],
  ],
  ["step on an id field", (a) => (ep(a).fields[0].step = 1), [["entrypoints.0.fields.0.step", "not_allowed"]]],
  ["id key repeated", (a) => ep(a).fields.push(idField("email")), [["entrypoints.0.fields.2.key", "duplicate"]]],
  [
    "several ids, none main",
    (a) => {
      ep(a).fields[0].main = false;
      ep(a).fields.push(idField("phone_number"));
    },
    [["entrypoints.0.fields", "main_required"]],
  ],
  [
    "several ids, two main",
    (a) => ep(a).fields.push(idField("phone_number", { main: true, mandatory: true, requiresConfirmation: true })),
    [["entrypoints.0.fields", "main_required"]],
  ],
  [
    "main id not mandatory",
    (a) => {
      ep(a).fields[0].mandatory = false;
      ep(a).fields.push(idField("screen_name"));
    },
    [["entrypoints.0.fields.0.main", "main_rules"]],
  ],
  [
    "main id without confirmation",
    (a) => {
      ep(a).fields[0].requiresConfirmation = false;
      ep(a).fields.push(idField("national_id"));
    },
    [["entrypoints.0.fields.0.main", "main_rules"]],
  ],
  [
    "data key not in the catalog",
    (a) => (ep(a).fields[1].key = "favourite_colour"),
    [["entrypoints.0.fields.1.key", "unknown_key"]],
  ],
  ["data step 3", (a) => (ep(a).fields[1].step = 3), [["entrypoints.0.fields.1.step", "invalid_value"]]],
  ["data step 0", (a) => (ep(a).fields[1].step = 0), [["entrypoints.0.fields.1.step", "invalid_value"]]],
  ["main on a data field", (a) => (ep(a).fields[1].main = false), [["entrypoints.0.fields.1.main", "not_allowed"]]],
  [
    "requiresConfirmation on a data field",
    (a) => (ep(a).fields[1].requiresConfirmation = true),
    [["entrypoints.0.fields.1.requiresConfirmation", "not_allowed"]],
  ],
  [
    "requiresVerification on a data field",
    (a) => (ep(a).fields[1].requiresVerification = false),
    [["entrypoints.0.fields.1.requiresVerification", "not_allowed"]],
  ],
  ["data key repeated", (a) => ep(a).fields.push(dataField("name")), [["entrypoints.0.fields.2.key", "duplicate"]]],
];

describe.each(backends)("entry point rules on %s", (_name, open) => {
  const { rejects } = useRuleSuite(open);
  itRejectsEachCase(rejects, [...entrypointCases, ...fieldCases]);
});
