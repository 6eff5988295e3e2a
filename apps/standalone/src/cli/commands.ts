// Every command of the CLI, one line each (a command is a file of this folder; see command.ts).
export { appsGet } from "./apps-get.ts";
export { appsList } from "./apps-list.ts";
export { bootstrapOperator } from "./bootstrap-operator.ts";
export { createOperator } from "./create-operator.ts";
export { migrate } from "./migrate.ts";
export { rotateSigningKeys } from "./rotate-signing-keys.ts";
export { serve } from "./serve.ts";
export { usersFind } from "./users-find.ts";
export { usersGet } from "./users-get.ts";
export { usersImport } from "./users-import.ts";
